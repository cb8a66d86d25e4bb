# RUN: %python -m pytest -q -p no:cacheprovider %s
"""gm.conv2d, gm.max_pool2d and gm.avg_pool2d traced, against a direct
numpy evaluation of their definitions (and eager on numpy arrays)."""

import numpy as np
import pytest

import google_mlir as gm


def reference_conv(x, w, strides, dilations, pads, groups):
    """The definition, element by element, in float64."""
    top, bottom, left, right = pads
    x = np.pad(x.astype(np.float64), ((0, 0), (top, bottom), (left, right),
                                      (0, 0)))
    kh, kw, cg, cout = w.shape
    oh = (x.shape[1] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (x.shape[2] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((x.shape[0], oh, ow, cout))
    per_group = cout // groups
    for y in range(oh):
        for z in range(ow):
            for o in range(cout):
                g = o // per_group
                patch = x[:, y * strides[0]:y * strides[0] +
                          dilations[0] * (kh - 1) + 1:dilations[0],
                          z * strides[1]:z * strides[1] +
                          dilations[1] * (kw - 1) + 1:dilations[1],
                          g * cg:(g + 1) * cg]
                out[:, y, z, o] = np.einsum("nijc,ijc->n", patch,
                                            w[..., o].astype(np.float64))
    return out


def same_pads(extent, size, stride):
    out = -(-extent // stride)
    total = max((out - 1) * stride + size - extent, 0)
    return total // 2, total - total // 2


CASES = [
    # (x shape, w shape, stride, padding, dilation, groups)
    ((2, 8, 8, 3), (3, 3, 3, 4), 1, "SAME", 1, 1),
    ((1, 9, 7, 4), (3, 2, 2, 6), (2, 1), "VALID", (1, 2), 2),
    ((3, 6, 6, 4), (3, 3, 1, 4), 2, "SAME", 1, 4),
    ((1, 5, 5, 2), (2, 2, 2, 3), 1, ((1, 0), (0, 2)), 1, 1),
]


@pytest.mark.parametrize("case", CASES)
def test_conv2d(rng, case):
    xs, ws, stride, padding, dilation, groups = case
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    f = gm.jit(lambda x, w: gm.conv2d(x, w, stride=stride, padding=padding,
                                      dilation=dilation, groups=groups))
    got = f(x, w)
    strides = (stride, stride) if isinstance(stride, int) else stride
    dilations = (dilation, dilation) if isinstance(dilation, int) \
        else dilation
    if padding == "SAME":
        sizes = [dilations[i] * (ws[i] - 1) + 1 for i in range(2)]
        pads = same_pads(xs[1], sizes[0], strides[0]) + \
            same_pads(xs[2], sizes[1], strides[1])
    elif padding == "VALID":
        pads = (0, 0, 0, 0)
    else:
        pads = padding[0] + padding[1]
    want = reference_conv(x, w, strides, dilations, pads, groups)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    # Outside a trace: the same numbers from numpy.
    np.testing.assert_allclose(gm.conv2d(x, w, stride, padding, dilation,
                                         groups), want, rtol=1e-4,
                               atol=1e-4)


def test_conv2d_same_keeps_ceil_of_the_extent(rng):
    x = rng.standard_normal((1, 7, 7, 1)).astype(np.float64)
    w = rng.standard_normal((3, 3, 1, 2))
    assert gm.jit(lambda x, w: gm.conv2d(x, w, stride=2, padding="SAME"))(
        x, w).shape == (1, 4, 4, 2)


def test_conv2d_bfloat16(rng):
    x = gm.to_bfloat16(rng.standard_normal((1, 6, 6, 2)).astype(np.float32))
    w = gm.to_bfloat16(rng.standard_normal((3, 3, 2, 3)).astype(np.float32))
    got = gm.jit(lambda x, w: gm.conv2d(x, w, padding="SAME"))(x, w)
    assert got.dtype == gm.bfloat16
    want = reference_conv(gm.from_bfloat16(x), gm.from_bfloat16(w), (1, 1),
                          (1, 1), (1, 1, 1, 1), 1)
    np.testing.assert_allclose(gm.from_bfloat16(got), want, rtol=2e-2,
                               atol=5e-2)


def reference_pool(x, reduce, window, strides, pads):
    top, bottom, left, right = pads
    n, h, w, c = x.shape
    oh = (h + top + bottom - window[0]) // strides[0] + 1
    ow = (w + left + right - window[1]) // strides[1] + 1
    out = np.zeros((n, oh, ow, c))
    for y in range(oh):
        for z in range(ow):
            y0, z0 = y * strides[0] - top, z * strides[1] - left
            cells = x[:, max(y0, 0):y0 + window[0], max(z0, 0):z0 + window[1]]
            out[:, y, z] = reduce(cells, axis=(1, 2))
    return out


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pooling(rng, kind, padding):
    x = rng.standard_normal((2, 7, 9, 3)).astype(np.float32)
    pool = gm.max_pool2d if kind == "max" else gm.avg_pool2d
    got = gm.jit(lambda x: pool(x, 3, stride=2, padding=padding))(x)
    pads = (0, 0, 0, 0) if padding == "VALID" else \
        same_pads(7, 3, 2) + same_pads(9, 3, 2)
    want = reference_pool(x.astype(np.float64),
                          np.max if kind == "max" else np.mean, (3, 3),
                          (2, 2), pads)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pool(x, 3, stride=2, padding=padding), want,
                               rtol=1e-5, atol=1e-6)


def test_pooling_defaults_and_integers(rng):
    x = rng.integers(-9, 9, size=(1, 4, 6, 2)).astype(np.int32)
    got = gm.jit(lambda x: gm.max_pool2d(x, (2, 3)))(x)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(
        got, reference_pool(x, np.max, (2, 3), (2, 3), (0, 0, 0, 0)))
    # Averages of integers are float64, as numpy's mean.
    assert gm.jit(lambda x: gm.avg_pool2d(x, 2))(x).dtype == np.float64


def test_errors():
    x = np.zeros((1, 8, 8, 3), np.float32)
    with pytest.raises(ValueError, match="does not fit 3 input channels"):
        gm.jit(lambda x: gm.conv2d(x, np.zeros((3, 3, 2, 4), np.float32)))(x)
    with pytest.raises(ValueError, match="padding must be"):
        gm.jit(lambda x: gm.conv2d(x, np.zeros((3, 3, 3, 4), np.float32),
                                   padding="FULL"))(x)
    with pytest.raises(ValueError, match="stride must be a positive int"):
        gm.jit(lambda x: gm.max_pool2d(x, 2, stride=0))(x)
    with pytest.raises(ValueError, match="expected an NHWC input of rank 4"):
        gm.jit(lambda x: gm.avg_pool2d(x[0], 2))(x)
    with pytest.raises(ValueError, match="larger than the padded input"):
        gm.jit(lambda x: gm.conv2d(x, np.zeros((9, 1, 3, 1), np.float32)))(x)
