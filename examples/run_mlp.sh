#!/usr/bin/env bash
# The main job: optimize the example MLP (the two dense layers fuse into
# google.matmul_bias_relu), compile it to native code with the extreme
# pipeline, run it with google-run, and check it against NumPy; then the
# same model from Python with @gm.jit.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BIN="$BUILD_DIR/bin"

echo "== google dialect after the optimization passes =="
"$BIN/google-opt" examples/mlp.mlir --google-fold-constants --google-cse \
  --google-dce --google-fuse-matmul-bias-relu

echo "== google-run: compile (or load from the cache), run, batch of 2, and check against the reference interpreter =="
GOOGLE_MLIR_LOG_COMPILES=1 "$BIN/google-run" examples/mlp.mlir --check \
  --input=2x64xf32=0.1 --input=64x128xf32=0.01 --input=128xf32=-0.05 \
  --input=128x10xf32=0.02 --input="10xf32=0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9"

echo "== random inputs, batch of 8, checked against NumPy =="
/usr/bin/python3 test/e2e/e2e.py run examples/mlp.mlir "$BIN/google-run"

echo "== Python: @gm.jit traces the same MLP, compiles it once, runs three batch sizes =="
GOOGLE_MLIR_LOG_COMPILES=1 PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 \
  examples/mlp_jit.py

echo "== Python: a LeNet-style CNN on scikit-learn's digits and a GPT-style decoder block, checked against NumPy =="
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/cnn_digits.py
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/gpt_block.py

echo "== Python: training the MLP (against hand-written NumPy backprop) and the CNN on the digits with gm.value_and_grad =="
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/train_mlp.py
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/train_cnn.py

echo "== Python: an RNN trained through gm.scan (a compiled loop), per-example gradients with gm.vmap =="
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/train_rnn.py
