#!/usr/bin/python3
"""Builds a bundle for checking google-mlir's CUDA target on a GPU machine
that has no MLIR: objects compiled here with google-run --target=cuda
--emit-object, inputs and expected results as .npz, a manifest, and the
runtime library. bench/gpu/device_run.py runs it there through ctypes,
bench/gpu/device_check.sh runs the whole check (benches, cases,
compute-sanitizer). Every e2e file (test/e2e and examples) by default,
and the examples' models traced with @gm.jit (PYTHONPATH=BUILD/python):
the LeNet on the digits' test images and the GPT block at f32 and with
bf16 weights, and at width 256 (sequence 128; also with
fused-attention=true), against the examples' NumPy references; and
training: the width-256 block's gradients and the CNN's (against the CPU's
compiled ones), the CNN's SGD step (against its NumPy step) and the RNN's
gradient through 16 scan steps (against NumPy's BPTT) (--no-models: not).
BUNDLE_TARGET=cpu builds the same bundle for the CPU, which
`device_run.py OUT --no-bench --host` checks here (references and
tolerances, without a GPU).

  bench/gpu/build_bundle.py BUILD MAIN OUT [--opt-levels "0 3"]
                            [--files a.mlir,...] [--bench] [--no-models]

The benches: relu(A @ B + bias) (4096^3 f32, f16 and bf16, 1024^3 f32; the f32
ones also with tf32=true, against torch with TF32 allowed, 4096^3 also
on wgmma in TF32 with one and two warpgroups, the latter also
warp-specialized; the 16-bit
ones also with async-copy=false: slices staged through registers, and
with chip=sm_90a wgmma=true: warpgroup MMAs fed by TMA, blocks of one
warpgroup and of two, each also warp-specialized), softmax
4096x4096, 65536x128 (a warp per row) and 262144x10 (a thread per row), relu(x @ w.T + bias) 4096^3 (B^T read where it lies: f16 by
mma.sync and by wgmma, one warpgroup and two warp-specialized; f32 by
vector tiles), nn.Linear's relu(x @ w.T + b) at batches 32 and 8 (split
K, and warp dots with warp-dots=true), relu(x + y)
over 64 Mi elements, a 4096x4096 transpose, a squared error's sum over
4096x4096 (every axis reduced to one value), column sums (a bias's
gradient: x.sum(0)) over 4096x4096 and 65536x256,
attention 16x1024x64 (also
with fused-attention=true: one kernel) and the MLP 32x784 -> 256 -> 10
with softmax, and scatter_add into 32000x512 and 8000x256 rows (an
embedding's gradient; the latter also with gpu-scatter=reduction) against
torch's index_add. The cases add the scatter file with
gpu-scatter=segments, the TF32 kernels' file
(test/Codegen/GPU/Inputs/matmul-tf32.mlir, compiled with tf32=true), the
tensor-core file with async-copy=false and the attention-tiles file with
fused-attention=true, the wgmma and tensor-core files with chip=sm_90a
wgmma=true (the wgmma file also with wgmma-warpgroups=2, and warp-specialized with
wgmma-specialized=true, with one and two MMA warpgroups), the
transposed-B file (test/e2e/matmul-transposed-operands.mlir) with chip=sm_90a
wgmma=true, plain and warp-specialized with two warpgroups, the TF32
wgmma file (test/Codegen/GPU/Inputs/matmul-wgmma-tf32.mlir) with
chip=sm_90a wgmma=true tf32=true, plain and warp-specialized, the
split-K file with warp-dots=true, the tensor-core, transposed-operand and
TF32 files with mma-sync-warps=4 and the tensor-core file with
mma-sync-blocks-per-sm=2 (benches -warps4 and -blocks2 of the 16-bit
relu(A @ B + bias) too, beside -warps8, the default), and
test/Codegen/GPU/Inputs/kernel-bounds.mlir with
check-bounds=true, whose cases are marked isolated (a failed check in a
kernel loses the CUDA context: device_run.py --isolated runs them, one
process each from device_check.sh).
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, glob
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("build"); p.add_argument("main"); p.add_argument("out")
p.add_argument("--opt-levels", default="0 3")
p.add_argument("--files", default="")
p.add_argument("--bench", action="store_true")
p.add_argument("--no-models", action="store_true",
               help="leave out the example models (CNN, GPT block)")
a = p.parse_args()
sys.path.insert(0, os.path.join(a.main, "test", "e2e"))
import e2e  # noqa: E402

GR = os.path.join(a.build, "bin", "google-run")
os.makedirs(os.path.join(a.out, "objs"), exist_ok=True)
os.makedirs(os.path.join(a.out, "cases"), exist_ok=True)
os.makedirs(os.path.join(a.out, "lib"), exist_ok=True)
shutil.copy(os.path.join(a.build, "lib", "libgoogle_runtime.so.1"),
            os.path.join(a.out, "lib", "libgoogle_runtime.so.1"))
manifest = []

def compile_obj(path, opts, tag):
    obj = os.path.join("objs", tag + ".so")
    cmd = [GR, path, "--target=" + os.environ.get("BUNDLE_TARGET", "cuda"), "--emit-object=" + os.path.join(a.out, obj),
           "--pipeline-options=" + opts]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print("COMPILE FAIL", tag, r.stderr.strip()[:300]); return None
    return obj

files = e2e.e2e_files(os.path.join(a.main, "test/e2e"))
if a.files:
    files = [os.path.join(a.main, "test/e2e", f) for f in a.files.split(",")]
# (file, extra pipeline options): the TF32 kernels' file holds only with
# tf32=true (its references round the inputs to TF32).
runs = [(f, "") for f in files]
if not a.files:
    runs.append((os.path.join(a.main, "test/Codegen/GPU/Inputs/matmul-tf32.mlir"), "tf32=true"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-tensor-cores.mlir"), "async-copy=false"))
    # The fused attention kernel (an opt-in until it has run on a GPU).
    runs.append((os.path.join(a.main, "test/e2e/attention-tiles.mlir"), "fused-attention=true"))
    # sm_90a's wgmma kernel (an opt-in until it has run on a GPU).
    for f in ("matmul-wgmma.mlir", "matmul-wgmma-partial.mlir", "matmul-tensor-cores.mlir"):
        runs.append((os.path.join(a.main, "test/e2e", f), "chip=sm_90a wgmma=true"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-wgmma.mlir"),
                 "chip=sm_90a wgmma=true wgmma-warpgroups=2"))
    # x @ w.T: B^T read K-major (wgmma without transposeB).
    runs.append((os.path.join(a.main, "test/e2e/matmul-transposed-operands.mlir"), "chip=sm_90a wgmma=true"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-transposed-operands.mlir"),
                 "chip=sm_90a wgmma=true wgmma-specialized=true wgmma-warpgroups=2",
                 "wgmma-specialized2"))
    # Warp-specialized (a producer warpgroup), one and two MMA warpgroups.
    runs.append((os.path.join(a.main, "test/e2e/matmul-wgmma.mlir"),
                 "chip=sm_90a wgmma=true wgmma-specialized=true", "wgmma-specialized"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-wgmma.mlir"),
                 "chip=sm_90a wgmma=true wgmma-specialized=true wgmma-warpgroups=2",
                 "wgmma-specialized2"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-wgmma-partial.mlir"),
                 "chip=sm_90a wgmma=true wgmma-specialized=true wgmma-warpgroups=2",
                 "wgmma-specialized2"))
    # TF32 on wgmma (rounded, K-major operands), plain and warp-specialized.
    tf32_wgmma = os.path.join(a.main, "test/Codegen/GPU/Inputs/matmul-wgmma-tf32.mlir")
    runs.append((tf32_wgmma, "chip=sm_90a wgmma=true tf32=true", "wgmma"))
    runs.append((tf32_wgmma, "chip=sm_90a wgmma=true tf32=true wgmma-specialized=true wgmma-warpgroups=2",
                 "wgmma-specialized2"))
    # The mma.sync kernels' tunings (off by default until they have run on
    # a GPU): blocks of 4 warps of 64x64, and launch bounds of two blocks
    # per SM.
    for f in ("test/e2e/matmul-tensor-cores.mlir", "test/e2e/matmul-transposed-operands.mlir"):
        runs.append((os.path.join(a.main, f), "mma-sync-warps=4", "warps4"))
    runs.append((os.path.join(a.main, "test/Codegen/GPU/Inputs/matmul-tf32.mlir"),
                 "tf32=true mma-sync-warps=4", "warps4"))
    runs.append((os.path.join(a.main, "test/e2e/matmul-tensor-cores.mlir"),
                 "mma-sync-blocks-per-sm=2", "blocks2"))
    # scatter_add's segments (the cheaper form for the file's large cases,
    # forced here for all of them; not yet run on a GPU).
    runs.append((os.path.join(a.main, "test/e2e/scatter.mlir"), "gpu-scatter=segments", "scatter-segments"))
    # Warp dots for x @ w.T at small batches (an opt-in until it has run
    # on a GPU).
    runs.append((os.path.join(a.main, "test/e2e/split-k.mlir"), "warp-dots=true", "warp-dots"))
    # Bounds checks in kernels: a failed one is the driver's device-side
    # assert, after which the context is lost (each case its own process).
    runs.append((os.path.join(a.main, "test/Codegen/GPU/Inputs/kernel-bounds.mlir"), "check-bounds=true"))
ISOLATED_ERRORS = {"check-bounds=true": "CUDA_ERROR_ASSERT"}
for f, extra, *tag in runs:
    path = os.path.normpath(f)
    _, cases, sigs = e2e.parse(path)
    os.makedirs(os.path.join(a.out, "src"), exist_ok=True)
    shutil.copy(os.path.join(a.main, "test/e2e/e2e.py"), os.path.join(a.out, "src"))
    shutil.copy(path, os.path.join(a.out, "src", os.path.basename(path) if "/examples/" not in os.path.abspath(path) else "example-mlp.mlir"))
    base = os.path.basename(path)[:-5] + ("-example" if "/examples/" in os.path.abspath(path) else "")
    if extra:  # e.g. matmul-tensor-cores-async-copy: its own objects
        base += "-" + (tag[0] if tag else extra.split()[-1].split("=")[0])
    for L in a.opt_levels.split():
        obj = compile_obj(path, f"opt-level={L} {extra}".strip(), f"{base}-o{L}")
        if not obj:
            manifest.append({"id": f"{base}-o{L}", "compile_error": True}); continue
        for c in cases:
            inputs = c.inputs()
            d = {f"in{i}": v for i, v in enumerate(inputs)}
            rec = {"id": f"{base}-o{L}-{c.index}", "obj": obj, "func": c.name,
                   "n_in": len(inputs), "error": c.expr if c.expects_error else None,
                   "arg_types": [e2e.element_type(t) for t in sigs[c.name][0]]}
            if extra in ISOLATED_ERRORS:
                rec["isolated"] = True
                if c.expects_error:
                    rec["error"] = ISOLATED_ERRORS[extra]
            if not c.expects_error:
                ref = e2e.evaluate(c, inputs)
                res_types = sigs[c.name][1]
                for j, t in enumerate(res_types):
                    d[f"exp{j}"] = np.asarray(ref[j]).astype(e2e.EXPECTED_DTYPES[e2e.element_type(t)])
                rec["n_out"] = len(res_types)
                rec["res_types"] = [e2e.element_type(t) for t in res_types]
            rec["src"] = os.path.basename(path) if "/examples/" not in os.path.abspath(path) else "example-mlp.mlir"
            rec["case"] = c.index
            manifest.append(rec)
    print("bundled", base, len(cases), "cases", flush=True)

def bundle_model(name, fn, args, expected, scale_tolerance, options="",
                 bench=None, opt_levels=None):
    """`fn` (a @gm.jit function) traced at `args`, compiled for the target
    at opt-level 0 and 3 (or `opt_levels`), with its inputs and NumPy's
    `expected` results: each result must lie within `scale_tolerance` times
    its largest magnitude of NumPy's (the examples' own criterion). With
    `bench` (the name of device_run.py's torch contender, or another name
    for none), the opt-level 3 object is also timed there, inputs and
    results on the device."""
    import google_mlir as gm
    M = os.path.join(a.out, "models"); os.makedirs(M, exist_ok=True)
    src = os.path.join(M, name + ".mlir")
    text = fn.lower(*args, stage="google")
    open(src, "w").write(text)
    function = re.search(r"func\.func @([\w.$-]+)", text).group(1)
    host = [gm.from_bfloat16(v) if v.dtype == gm.bfloat16 else np.asarray(v)
            for v in args]
    data = {f"in{i}": v for i, v in enumerate(host)}
    data.update({f"exp{j}": np.asarray(e) for j, e in enumerate(expected)})
    np.savez(os.path.join(M, name + ".npz"), **data)
    scales = [float(np.max(np.abs(e))) if np.size(e) else 0.0 for e in expected]
    for L in (opt_levels or a.opt_levels).split():
        obj = compile_obj(src, f"opt-level={L} {options}".strip(), f"{name}-o{L}")
        rec = {"id": f"model-{name}-o{L}", "npz": f"models/{name}.npz",
               "n_in": len(args), "n_out": len(expected), "error": None,
               "atol": scale_tolerance * max(scales), "rtol": 0.0,
               "atols": [scale_tolerance * s for s in scales]}
        if not obj:
            rec["compile_error"] = True
        else:
            rec.update(obj=obj, func=function)
        manifest.append(rec)
        if bench and obj and L == "3" and a.bench:
            manifest.append({"id": f"model-{name}", "bench": True,
                             "model": bench, "npz": rec["npz"], "obj": obj,
                             "func": function, "n_in": len(args)})
    print("bundled model", name, flush=True)


if not a.no_models:
    # The examples' CNN and GPT block, traced with @gm.jit here (the GPU
    # machine has no compiler), checked there against NumPy.
    sys.path.insert(0, os.path.join(a.main, "examples"))
    import google_mlir as gm
    import cnn_digits, gpt_block  # noqa: E401
    images = cnn_digits.load_digits()[1][0]
    weights = cnn_digits.init_weights()
    lenet_args = [images] + [weights[n] for n in cnn_digits.SHAPES]
    probabilities, classes, features = cnn_digits.lenet_numpy(*lenet_args)
    # Probabilities and features only: an argmax may flip on a near tie.
    def lenet(x, c1, b1, c2, b2, w3, b3, w4, b4):
        probabilities, _, h = cnn_digits.lenet(x, c1, b1, c2, b2, w3, b3, w4, b4)
        return probabilities, h
    bundle_model("lenet", gm.jit(lenet, dynamic_dims={"x": [0]}), lenet_args,
                 [probabilities.astype(np.float32), features.astype(np.float32)],
                 1e-5)
    tokens = np.random.default_rng(1).integers(0, gpt_block.VOCAB, (2, 16))
    for tag, dtype, tolerance in (("f32", np.float32, 2e-5),
                                  ("bf16", gm.bfloat16, 5e-2)):
        parameters = gpt_block.init_parameters(dtype=dtype)
        args = [tokens] + [parameters[n] for n in gpt_block.PARAMETERS]
        want = gpt_block.gpt_block_numpy(*[
            gm.from_bfloat16(v) if v.dtype == gm.bfloat16 else v
            for v in args])
        bundle_model(f"gpt_block_{tag}", gpt_block.compile_block(), args,
                     [want.astype(np.float32)], tolerance)
    # The block at issue 25's benchmark size (width 256, 4 heads of 64,
    # sequence 128): its attention also through the fused kernel.
    parameters = gpt_block.init_parameters(vocab=1000, width=256, hidden=1024)
    tokens = np.random.default_rng(2).integers(0, 1000, (2, 128))
    args = [tokens] + [parameters[n] for n in gpt_block.PARAMETERS]
    want = gpt_block.gpt_block_numpy(*args).astype(np.float32)
    cuda = os.environ.get("BUNDLE_TARGET", "cuda") == "cuda"
    for tag, options in (("", ""), ("_fused", "fused-attention=true"))[:2 if cuda else 1]:
        bundle_model(f"gpt_block_w256{tag}", gm.jit(gpt_block.gpt_block), args,
                     [want], 2e-5, options=options, bench="gpt")
    # Timed against itself with separate launches (merge-launches=false).
    bundle_model("gpt_block_w256_unmerged", gm.jit(gpt_block.gpt_block), args,
                 [want], 2e-5, options="merge-launches=false", bench="gpt",
                 opt_levels="3")
    # Its gradient (every parameter's, of the mean square of its output:
    # the embedding's is a scatter_add of 256 tokens into 1000 rows, as
    # segments), checked against the CPU's compiled gradient.
    def square_loss(tokens, embedding, ln1_scale, ln1_bias, wq, wk, wv, wo,
                    ln2_scale, ln2_bias, w1, b1, w2, b2):
        y = gpt_block.gpt_block(tokens, embedding, ln1_scale, ln1_bias, wq, wk, wv, wo,
                                ln2_scale, ln2_bias, w1, b1, w2, b2)
        return np.mean(y * y)
    block_grad = gm.jit(gm.grad(square_loss, argnums=tuple(range(1, len(args)))))
    grads = list(block_grad(*args))
    bundle_model("gpt_block_w256_grad", block_grad, args, grads, 1e-4, bench="gpt-grad")
    bundle_model("gpt_block_w256_grad_unmerged", block_grad, args, grads, 1e-4,
                 options="merge-launches=false", bench="gpt-grad", opt_levels="3")
    # The RNN's gradient through 16 steps of gm.scan (a google.while on the
    # host launching each step's kernels; one-index gathers and scatters
    # as slices), against NumPy's backpropagation through time.
    import train_rnn
    rnn_keys = ("wx", "wh", "b", "wo", "bo")
    def rnn_grads(wx, wh, b, wo, bo, xs, targets):
        g = gm.grad(train_rnn.loss_fn)(dict(wx=wx, wh=wh, b=b, wo=wo, bo=bo), xs, targets)
        return tuple(g[k] for k in rnn_keys)
    rnn_params = train_rnn.init_params()
    xs, targets = train_rnn.make_batch(np.random.default_rng(0), steps=16)
    bptt = train_rnn.numpy_grads(rnn_params, xs, targets)
    bundle_model("rnn_grad", gm.jit(rnn_grads), [rnn_params[k] for k in rnn_keys] + [xs, targets],
                 [bptt[k].astype(np.float32) for k in rnn_keys], 1e-4)
    # The example's size (64 steps, batch 32, hidden 128), also timed against
    # torch's autograd over a Python loop of the same cell: each step's
    # launches (counted loops keep the counter on the host: no read-back).
    xs, targets = train_rnn.make_batch(np.random.default_rng(0))
    bptt = train_rnn.numpy_grads(rnn_params, xs, targets)
    bundle_model("rnn_grad_s64", gm.jit(rnn_grads), [rnn_params[k] for k in rnn_keys] + [xs, targets],
                 [bptt[k].astype(np.float32) for k in rnn_keys], 1e-4, bench="rnn")
    bundle_model("rnn_grad_s64_unmerged", gm.jit(rnn_grads),
                 [rnn_params[k] for k in rnn_keys] + [xs, targets],
                 [bptt[k].astype(np.float32) for k in rnn_keys], 1e-4, bench="rnn",
                 options="merge-launches=false", opt_levels="3")
    # The CNN's SGD step on 100 digits (convolution and pooling gradients),
    # against its hand-written NumPy step, and its gradients alone, against
    # the CPU's compiled ones.
    import train_cnn
    (digits, labels), _ = cnn_digits.load_digits()
    cnn_args = ([weights[n] for n in cnn_digits.SHAPES] + [digits[:100]]
                + [np.eye(10, dtype=np.float32)[labels[:100]]])
    stepped, step_loss = train_cnn.numpy_step(cnn_args[:8], *cnn_args[8:])
    bundle_model("cnn_train_step", train_cnn.train_step, cnn_args,
                 list(stepped) + [np.float32(step_loss)], 1e-5)
    def cnn_loss(c1, b1, c2, b2, w3, b3, w4, b4, x, onehot):
        return train_cnn.loss_fn((c1, b1, c2, b2, w3, b3, w4, b4), x, onehot)
    cnn_grad = gm.jit(gm.grad(cnn_loss, argnums=tuple(range(8))))
    bundle_model("cnn_grad", cnn_grad, cnn_args, list(cnn_grad(*cnn_args)), 1e-4)

if a.bench:
    B = os.path.join(a.out, "bench_src"); os.makedirs(B, exist_ok=True)
    mbr = """func.func @mbr(%a: tensor<{n}x{n}x{t}>, %b: tensor<{n}x{n}x{t}>, %c: tensor<{n}x{t}>) -> tensor<{n}x{n}x{t}> {{
  %m = google.matmul_bias_relu %a, %b, %c : tensor<{n}x{n}x{t}>, tensor<{n}x{n}x{t}>, tensor<{n}x{t}> -> tensor<{n}x{n}x{t}>
  return %m : tensor<{n}x{n}x{t}>
}}
"""
    # relu(x @ w.T + b), w as nn.Linear stores it (N x K).
    mbt = """func.func @mbt(%a: tensor<{n}x{n}x{t}>, %w: tensor<{n}x{n}x{t}>, %c: tensor<{n}x{t}>) -> tensor<{n}x{n}x{t}> {{
  %b = google.transpose %w {{perm = array<i64: 1, 0>}} : tensor<{n}x{n}x{t}> -> tensor<{n}x{n}x{t}>
  %m = google.matmul_bias_relu %a, %b, %c : tensor<{n}x{n}x{t}>, tensor<{n}x{n}x{t}>, tensor<{n}x{t}> -> tensor<{n}x{n}x{t}>
  return %m : tensor<{n}x{n}x{t}>
}}
"""
    # nn.Linear at a small batch, relu(x @ w.T + b) (M x K, N x K): split K
    # after a transpose, and warp dots (-warp-dots), against torch's
    # x @ w.t().
    lin = """func.func @mbt(%a: tensor<{m}x{k}xf32>, %w: tensor<{n}x{k}xf32>, %c: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %b = google.transpose %w {{perm = array<i64: 1, 0>}} : tensor<{n}x{k}xf32> -> tensor<{k}x{n}xf32>
  %m = google.matmul_bias_relu %a, %b, %c : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>, tensor<{n}xf32> -> tensor<{m}x{n}xf32>
  return %m : tensor<{m}x{n}xf32>
}}
"""
    sm = """func.func @sm(%x: tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32> {{
  %s = google.softmax %x {{axis = 1 : i64}} : tensor<{r}x{c}xf32>
  return %s : tensor<{r}x{c}xf32>
}}
"""
    ew = """func.func @ew(%x: tensor<{n}xf32>, %y: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %a = google.add %x, %y : tensor<{n}xf32>, tensor<{n}xf32> -> tensor<{n}xf32>
  %r = google.relu %a : tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""
    tr = """func.func @tr(%x: tensor<{r}x{c}xf32>) -> tensor<{c}x{r}xf32> {{
  %t = google.transpose %x {{perm = array<i64: 1, 0>}} : tensor<{r}x{c}xf32> -> tensor<{c}x{r}xf32>
  return %t : tensor<{c}x{r}xf32>
}}
"""
    attn = """func.func @attn(%q: tensor<{b}x{s}x{d}xf32>, %k: tensor<{b}x{s}x{d}xf32>, %v: tensor<{b}x{s}x{d}xf32>) -> tensor<{b}x{s}x{d}xf32> {{
  %kt = google.transpose %k {{perm = array<i64: 0, 2, 1>}} : tensor<{b}x{s}x{d}xf32> -> tensor<{b}x{d}x{s}xf32>
  %s = google.matmul %q, %kt : tensor<{b}x{s}x{d}xf32>, tensor<{b}x{d}x{s}xf32> -> tensor<{b}x{s}x{s}xf32>
  %c = google.constant dense<0.125> : tensor<f32>
  %sc = google.mul %s, %c : tensor<{b}x{s}x{s}xf32>, tensor<f32> -> tensor<{b}x{s}x{s}xf32>
  %p = google.softmax %sc {{axis = -1 : i64}} : tensor<{b}x{s}x{s}xf32>
  %o = google.matmul %p, %v : tensor<{b}x{s}x{s}xf32>, tensor<{b}x{s}x{d}xf32> -> tensor<{b}x{s}x{d}xf32>
  return %o : tensor<{b}x{s}x{d}xf32>
}}
"""
    mlp = """func.func @mlp(%x: tensor<32x784xf32>, %w1: tensor<784x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x10xf32>, %b2: tensor<10xf32>) -> tensor<32x10xf32> {
  %h = google.matmul_bias_relu %x, %w1, %b1 : tensor<32x784xf32>, tensor<784x256xf32>, tensor<256xf32> -> tensor<32x256xf32>
  %l = google.matmul %h, %w2 : tensor<32x256xf32>, tensor<256x10xf32> -> tensor<32x10xf32>
  %z = google.add %l, %b2 : tensor<32x10xf32>, tensor<10xf32> -> tensor<32x10xf32>
  %p = google.softmax %z {axis = 1 : i64} : tensor<32x10xf32>
  return %p : tensor<32x10xf32>
}
"""
    # An embedding's gradient: b + the rows of u added at ids (torch:
    # b.index_add(0, ids, u)); ids uniform in [0, V).
    scatter = """func.func @scatter(%b: tensor<{v}x{d}xf32>, %ids: tensor<{n}xi64>, %u: tensor<{n}x{d}xf32>) -> tensor<{v}x{d}xf32> {{
  %s = google.scatter_add %b, %ids, %u {{axis = 0 : i64}} : tensor<{v}x{d}xf32>, tensor<{n}xi64>, tensor<{n}x{d}xf32> -> tensor<{v}x{d}xf32>
  return %s : tensor<{v}x{d}xf32>
}}
"""
    # A squared error's sum over all axes (a loss): a reduction to one
    # value (torch: ((x - y) ** 2).sum()).
    sse = """func.func @sse(%x: tensor<{r}x{c}xf32>, %y: tensor<{r}x{c}xf32>) -> tensor<f32> {{
  %d = google.sub %x, %y : tensor<{r}x{c}xf32>, tensor<{r}x{c}xf32> -> tensor<{r}x{c}xf32>
  %q = google.mul %d, %d : tensor<{r}x{c}xf32>, tensor<{r}x{c}xf32> -> tensor<{r}x{c}xf32>
  %s = google.reduce_sum %q {{axes = array<i64: 0, 1>, keep_dims = false}} : tensor<{r}x{c}xf32> -> tensor<f32>
  return %s : tensor<f32>
}}
"""
    # A bias's gradient: the sum over a batch's rows (torch: x.sum(0)).
    colsum = """func.func @colsum(%x: tensor<{r}x{c}xf32>) -> tensor<{c}xf32> {{
  %s = google.reduce_sum %x {{axes = array<i64: 0>, keep_dims = false}} : tensor<{r}x{c}xf32> -> tensor<{c}xf32>
  return %s : tensor<{c}xf32>
}}
"""
    benches = []
    for r, c in ((4096, 4096), (65536, 256)):
        src = os.path.join(B, f"colsum{r}x{c}.mlir"); open(src, "w").write(colsum.format(r=r, c=c))
        benches.append((f"colsum{r}x{c}", src, "colsum", 0, [(r, c, "f32")]))
    src = os.path.join(B, "sse.mlir"); open(src, "w").write(sse.format(r=4096, c=4096))
    benches.append(("sse4096", src, "sse", 0, [(4096, 4096, "f32"), (4096, 4096, "f32")]))
    src = os.path.join(B, "attn.mlir"); open(src, "w").write(attn.format(b=16, s=1024, d=64))
    benches.append(("attention16x1024x64", src, "attn", 0, [(16, 1024, 64, "f32")] * 3))
    benches.append(("attention16x1024x64-fused", src, "attn", 0, [(16, 1024, 64, "f32")] * 3))
    src = os.path.join(B, "mlp.mlir"); open(src, "w").write(mlp)
    benches.append(("mlp32", src, "mlp", 0, [(32, 784, "f32"), (784, 256, "f32"), (256, "f32"), (256, 10, "f32"), (10, "f32")]))
    for n, t in ((4096, "f32"), (4096, "f16"), (4096, "bf16"), (1024, "f32")):
        src = os.path.join(B, f"mbr{n}{t}.mlir"); open(src, "w").write(mbr.format(n=n, t=t))
        benches.append((f"mbr{n}{t}", src, "mbr", 2 * n ** 3, [(n, n, t), (n, n, t), (n, t)]))
    # -warp-dots: warp-dots=true (the default splits K after a transpose).
    for m, k, n in ((32, 784, 256), (8, 4096, 4096)):
        src = os.path.join(B, f"linear{m}x{k}x{n}.mlir"); open(src, "w").write(lin.format(m=m, k=k, n=n))
        for tag in ("", "-warp-dots"):
            benches.append((f"linear{m}x{k}x{n}{tag}", src, "mbt", 2 * m * k * n, [(m, k, "f32"), (n, k, "f32"), (n, "f32")]))
    src = os.path.join(B, "sm.mlir"); open(src, "w").write(sm.format(r=4096, c=4096))
    benches.append(("softmax4096", src, "sm", 0, [(4096, 4096, "f32")]))
    # Rows of 128 (a warp per row, attention's scores over 128 keys) and of
    # 10 (a thread per row, a classifier's classes).
    for r, c in ((65536, 128), (262144, 10)):
        src = os.path.join(B, f"sm{r}x{c}.mlir"); open(src, "w").write(sm.format(r=r, c=c))
        benches.append((f"softmax{r}x{c}", src, "sm", 0, [(r, c, "f32")]))
    src = os.path.join(B, "ew.mlir"); open(src, "w").write(ew.format(n=1 << 26))
    benches.append(("add_relu_64M", src, "ew", 0, [(1 << 26, "f32"), (1 << 26, "f32")]))
    # A transpose (32 x 32 tiles through shared memory).
    src = os.path.join(B, "tr.mlir"); open(src, "w").write(tr.format(r=4096, c=4096))
    benches.append(("transpose4096", src, "tr", 0, [(4096, 4096, "f32")]))
    # TF32 tensor cores (an opt-in), against torch with TF32 allowed.
    for n in (4096, 1024):
        src = os.path.join(B, f"mbr{n}f32.mlir")
        benches.append((f"mbr{n}f32-tf32", src, "mbr", 2 * n ** 3, [(n, n, "f32"), (n, n, "f32"), (n, "f32")]))
    # 16-bit tensor cores staging through registers (async-copy=false).
    for t in ("f16", "bf16"):
        benches.append((f"mbr4096{t}-sync", os.path.join(B, f"mbr4096{t}.mlir"), "mbr", 2 * 4096 ** 3,
                        [(4096, 4096, t), (4096, 4096, t), (4096, t)]))
    # 16-bit warpgroup tensor cores fed by TMA (sm_90a, wgmma=true), blocks
    # of one warpgroup and of two (-wgmma2), warp-specialized (-ws: and a
    # producer warpgroup).
    for t in ("f16", "bf16"):
        for tag in ("wgmma", "wgmma2", "wgmma-ws", "wgmma2-ws"):
            benches.append((f"mbr4096{t}-{tag}", os.path.join(B, f"mbr4096{t}.mlir"), "mbr", 2 * 4096 ** 3,
                            [(4096, 4096, t), (4096, 4096, t), (4096, t)]))
    # The mma.sync kernels' tunings: -warps4 (mma-sync-warps=4), -blocks2
    # (mma-sync-blocks-per-sm=2), and -warps8 (the default, timed beside
    # them in the same step).
    for t in ("f16", "bf16"):
        for tag in ("warps8", "warps4", "blocks2"):
            benches.append((f"mbr4096{t}-{tag}", os.path.join(B, f"mbr4096{t}.mlir"), "mbr", 2 * 4096 ** 3,
                            [(4096, 4096, t), (4096, 4096, t), (4096, t)]))
    # x @ w.T: B^T read where it lies, in f16 by mma.sync (no suffix) and
    # wgmma (-wgmma, -wgmma2-ws), in f32 by vector tiles, against torch's
    # x @ w.t().
    for t, tags in (("f16", ("", "-wgmma", "-wgmma2-ws")), ("f32", ("",))):
        src = os.path.join(B, f"mbt4096{t}.mlir"); open(src, "w").write(mbt.format(n=4096, t=t))
        for tag in tags:
            benches.append((f"mbt4096{t}{tag}", src, "mbt", 2 * 4096 ** 3,
                            [(4096, 4096, t), (4096, 4096, t), (4096, t)]))
    # TF32 on wgmma (-wgmma-tf32, -wgmma2-tf32, -wgmma2-ws-tf32), against
    # torch with TF32 allowed.
    for tag in ("wgmma-tf32", "wgmma2-tf32", "wgmma2-ws-tf32"):
        benches.append((f"mbr4096f32-{tag}", os.path.join(B, "mbr4096f32.mlir"), "mbr", 2 * 4096 ** 3,
                        [(4096, 4096, "f32"), (4096, 4096, "f32"), (4096, "f32")]))
    # scatter_add (the default picks segments at these sizes; -reduction:
    # each element testing every index, as before them).
    for v, d, n, tags in ((32000, 512, 4096, ("",)), (8000, 256, 2048, ("", "-reduction"))):
        src = os.path.join(B, f"scatter{v}x{d}x{n}.mlir"); open(src, "w").write(scatter.format(v=v, d=d, n=n))
        for tag in tags:
            benches.append((f"scatter{v}x{d}x{n}{tag}", src, "scatter", 0,
                            [(v, d, "f32"), (n, f"i64@{v}"), (n, d, "f32")]))
    WGMMA_TF32 = {"-wgmma-tf32": " chip=sm_90a wgmma=true tf32=true",
                  "-wgmma2-tf32": " chip=sm_90a wgmma=true tf32=true wgmma-warpgroups=2",
                  "-wgmma2-ws-tf32": " chip=sm_90a wgmma=true tf32=true wgmma-specialized=true wgmma-warpgroups=2"}
    MMA_SYNC = {"-warps8": " mma-sync-warps=8", "-warps4": " mma-sync-warps=4",
                "-blocks2": " mma-sync-blocks-per-sm=2"}
    for name, src, fn, flops, shapes in benches:
        tf32 = name.endswith("-tf32")
        wgmma_tf32 = [v for k, v in WGMMA_TF32.items() if name.endswith(k)]
        extra = (wgmma_tf32[0] if wgmma_tf32 else " tf32=true" if tf32 else " async-copy=false" if name.endswith("-sync")
                 else " fused-attention=true" if name.endswith("-fused")
                 else " warp-dots=true" if name.endswith("-warp-dots")
                 else " gpu-scatter=reduction" if name.endswith("-reduction")
                 else " chip=sm_90a wgmma=true" if name.endswith("-wgmma")
                 else " chip=sm_90a wgmma=true wgmma-warpgroups=2" if name.endswith("-wgmma2")
                 else " chip=sm_90a wgmma=true wgmma-specialized=true" if name.endswith("-wgmma-ws")
                 else " chip=sm_90a wgmma=true wgmma-specialized=true wgmma-warpgroups=2"
                 if name.endswith("-wgmma2-ws")
                 else [v for k, v in MMA_SYNC.items() if name.endswith(k)][0]
                 if any(name.endswith(k) for k in MMA_SYNC) else "")
        obj = compile_obj(src, "opt-level=3" + extra, "bench-" + name)
        manifest.append({"id": "bench-" + name, "bench": True, "obj": obj, "func": fn,
                         "flops": flops, "shapes": [list(s) for s in shapes], "tf32": tf32})
        print("bench", name, obj, flush=True)

json.dump(manifest, open(os.path.join(a.out, "manifest.json"), "w"), indent=0)
print("cases:", sum(1 for m in manifest if "src" in m or "npz" in m), "objects:", len(os.listdir(os.path.join(a.out, "objs"))))
