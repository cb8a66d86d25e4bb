import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A fresh disk cache for this test."""
    path = tmp_path / "cache"
    monkeypatch.setenv("GOOGLE_MLIR_CACHE_DIR", str(path))
    return path
