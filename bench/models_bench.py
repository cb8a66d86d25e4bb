#!/usr/bin/python3
"""Models end to end, google-mlir (@gm.jit, opt-level 3, in-process, zero
copy) side by side with numpy on OpenBLAS's AVX-512 SkylakeX kernel and,
when Debian's python3-torch is installed, PyTorch's CPU build, at 1 and 2
threads: plain matmul, batched matmul, the MLP (784 -> 256 -> 10, softmax)
at batch 1 and 64, attention (softmax(q k^T / sqrt(d)) v), the LeNet-style
CNN of examples/cnn_digits.py at batch 1 and 256, and the GPT-style decoder
block of examples/gpt_block.py (width 256, 4 heads, sequence 128) at batch
1 and 16, and training steps of the MLP, the CNN and the RNN. Each contender runs in processes of its own (the workers of
OpenBLAS and of OpenMP spin on a core after a call, which would slow the
other down): per thread count, rounds (each starting with the next
contender) alternate between a google-mlir
process (GOOGLE_MLIR_NUM_THREADS set; its numpy reference single-threaded),
a numpy process (OPENBLAS_NUM_THREADS set, OPENBLAS_CORETYPE=SkylakeX
forced, the kernel tuning variables cleared) and a torch process
(torch.set_num_threads). google-mlir's and torch's results are checked
against numpy before they are timed; medians over the rounds are printed
with the ratios numpy / google and torch / google (above 1: google-mlir is
faster). Timings are for reports, never asserted.

    PYTHONPATH=build/python /usr/bin/python3 bench/models_bench.py
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def softmax_numpy(np, v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def erf_numpy(np, x):
    """erf in float32 (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7):
    numpy has no erf of its own."""
    t = 1 / (1 + np.float32(0.3275911) * np.abs(x))
    poly = t * (np.float32(0.254829592) + t * (np.float32(-0.284496736) + t * (
        np.float32(1.421413741) + t * (np.float32(-1.453152027) +
                                       t * np.float32(1.061405429)))))
    return np.sign(x) * (1 - poly * np.exp(-x * x))


def cnn_cases(np, gm, rng):
    sys.path.insert(0, os.path.join(root, "examples"))
    import cnn_digits
    weights = cnn_digits.init_weights()
    args = [weights[name] for name in cnn_digits.SHAPES]
    jitted = gm.jit(cnn_digits.lenet, dynamic_dims={"x": [0]})

    def numpy_cnn(x, *args):
        return cnn_digits.lenet_numpy(x, *args)[0]

    def torch_cnn(torch):
        functional = torch.nn.functional

        def prepare(x, c1, b1, c2, b2, w3, b3, w4, b4):
            nchw = lambda a: torch.from_numpy(a).permute(0, 3, 1, 2) \
                .contiguous()  # noqa: E731
            oihw = lambda w: torch.from_numpy(w).permute(3, 2, 0, 1) \
                .contiguous()  # noqa: E731
            t = torch.from_numpy
            return (nchw(x), oihw(c1), t(b1), oihw(c2), t(b2), t(w3), t(b3),
                    t(w4), t(b4))

        def run(x, c1, b1, c2, b2, w3, b3, w4, b4):
            h = functional.relu(functional.conv2d(x, c1, b1, padding=1))
            h = functional.max_pool2d(h, 2)
            h = functional.relu(functional.conv2d(h, c2, b2, padding=1))
            h = functional.avg_pool2d(h, 2)
            # NHWC order of the features, as the other contenders flatten.
            h = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1)
            h = functional.relu(h @ w3 + b3)
            return torch.softmax(h @ w4 + b4, dim=-1)
        return prepare, run

    per_image = 2 * (8 * 8 * 8 * 9 + 4 * 4 * 16 * 9 * 8 + 64 * 64 + 64 * 10)
    cases = []
    for batch in (1, 256):
        x = rng.random((batch, 8, 8, 1), dtype=np.float32)
        cases.append((f"CNN digits batch {batch}", batch * per_image,
                      lambda *a: jitted(*a)[0], numpy_cnn, (x, *args),
                      torch_cnn))
    return cases


def conv_layer_cases(np, gm, rng):
    """A ResNet-style layer: 56x56x64 -> 64, 3x3, "SAME" (its GEMM is
    3136 x 576 x 64 per image)."""
    sys.path.insert(0, os.path.join(root, "examples"))
    import cnn_digits
    x = rng.standard_normal((1, 56, 56, 64)).astype(np.float32)
    w = (rng.standard_normal((3, 3, 64, 64)) * 0.05).astype(np.float32)

    def torch_conv(torch):
        def prepare(x, w):
            return (torch.from_numpy(x).permute(0, 3, 1, 2).contiguous(),
                    torch.from_numpy(w).permute(3, 2, 0, 1).contiguous())

        def run(x, w):
            # NHWC out, as the other contenders give it.
            return torch.nn.functional.conv2d(x, w, padding=1).permute(
                0, 2, 3, 1)
        return prepare, run

    return [("conv 56x56x64->64 3x3", 2 * 56 * 56 * 64 * 9 * 64,
             gm.jit(lambda x, w: gm.conv2d(x, w, padding="SAME")),
             cnn_digits.conv_same_numpy, (x, w), torch_conv)]


def training_cases(np, gm, rng):
    """One SGD step of examples/train_mlp.py's MLP (64 -> 256 -> 10, softmax
    cross-entropy) at batch 256: the compiler's gradients, hand-written
    NumPy backpropagation and PyTorch's autograd. Each returns the updated
    first layer."""
    sys.path.insert(0, os.path.join(root, "examples"))
    import train_mlp
    params = train_mlp.init_params()
    x = rng.random((256, 64), dtype=np.float32)
    onehot = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 256)]

    def ours(*args):
        return train_mlp.train_step(*args)[0]

    def numpy_step(w1, b1, w2, b2, x, onehot):
        return train_mlp.numpy_step([w1, b1, w2, b2], x, onehot)[0][0]

    def torch_step(torch):
        def prepare(*args):
            return tuple(torch.from_numpy(a) for a in args)

        def run(w1, b1, w2, b2, x, onehot):
            with torch.enable_grad():
                params = [p.detach().requires_grad_() for p in
                          (w1, b1, w2, b2)]
                logits = torch.relu(x @ params[0] + params[1]) @ params[2] \
                    + params[3]
                loss = -(onehot * torch.log_softmax(logits, dim=-1)).sum(
                    dim=-1).mean()
                grads = torch.autograd.grad(loss, params)
            return (params[0] - train_mlp.LEARNING_RATE * grads[0]).detach()
        return prepare, run

    flops = 3 * 2 * 256 * (64 * 256 + 256 * 10)  # forward + 2x backward
    return [("MLP train step batch 256", flops, ours, numpy_step,
             (*params, x, onehot), torch_step)]


def cnn_training_cases(np, gm, rng):
    """One SGD step of examples/train_cnn.py's LeNet at batch 256: the
    compiler's gradients, hand-written NumPy backpropagation (im2col) and
    PyTorch's autograd. Each returns the updated first convolution."""
    sys.path.insert(0, os.path.join(root, "examples"))
    import cnn_digits
    import train_cnn
    weights = cnn_digits.init_weights()
    params = [weights[name] for name in cnn_digits.SHAPES]
    x = rng.random((256, 8, 8, 1), dtype=np.float32)
    onehot = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 256)]

    def ours(*args):
        return train_cnn.train_step(*args)[0]

    def numpy_step(*args):
        return train_cnn.numpy_step(args[:8], *args[8:])[0][0]

    def torch_step(torch):
        functional = torch.nn.functional

        def prepare(*args):
            return tuple(torch.from_numpy(a) for a in args)

        def run(c1, b1, c2, b2, w3, b3, w4, b4, x, onehot):
            with torch.enable_grad():
                params = [p.detach().requires_grad_() for p in
                          (c1, b1, c2, b2, w3, b3, w4, b4)]
                c1, b1, c2, b2, w3, b3, w4, b4 = params
                oihw = lambda w: w.permute(3, 2, 0, 1)  # noqa: E731
                h = x.permute(0, 3, 1, 2)
                h = functional.relu(functional.conv2d(h, oihw(c1), b1,
                                                      padding=1))
                h = functional.max_pool2d(h, 2)
                h = functional.relu(functional.conv2d(h, oihw(c2), b2,
                                                      padding=1))
                h = functional.avg_pool2d(h, 2)
                h = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1)
                logits = functional.relu(h @ w3 + b3) @ w4 + b4
                loss = -(onehot * torch.log_softmax(logits, dim=-1)).sum(
                    dim=-1).mean()
                (grad,) = torch.autograd.grad(loss, [c1])
            return (c1 - train_cnn.LEARNING_RATE * grad).detach()
        return prepare, run

    per_image = 2 * (8 * 8 * 8 * 9 + 4 * 4 * 16 * 9 * 8 + 64 * 64 + 64 * 10)
    return [("CNN train step batch 256", 3 * 256 * per_image, ours,
             numpy_step, (*params, x, onehot), torch_step)]


def decoder_cases(np, gm, rng):
    sys.path.insert(0, os.path.join(root, "examples"))
    import gpt_block
    vocab, width, hidden, heads, length = 1000, 256, 1024, 4, 128
    assert gpt_block.HEADS == heads
    parameters = gpt_block.init_parameters(vocab=vocab, width=width,
                                           hidden=hidden)
    args = [parameters[name] for name in gpt_block.PARAMETERS]
    jitted = gm.jit(gpt_block.gpt_block)
    depth = width // heads
    scale = np.float32(1 / np.sqrt(depth))

    def norm(x, g, b):
        mean = x.mean(axis=-1, keepdims=True)
        centered = x - mean
        variance = (centered * centered).mean(axis=-1, keepdims=True)
        return centered / np.sqrt(variance + np.float32(1e-5)) * g + b

    def numpy_block(tokens, embedding, g1, c1, wq, wk, wv, wo, g2, c2, w1,
                    b1, w2, b2):
        x = embedding[tokens]
        batch = x.shape[0]
        h = norm(x, g1, c1)
        q, k, v = [(h @ m).reshape(batch, length, heads, depth)
                   .transpose(0, 2, 1, 3) for m in (wq, wk, wv)]
        scores = q @ k.transpose(0, 1, 3, 2) * scale
        scores = np.where(np.tril(np.ones((length, length), bool)), scores,
                          np.float32(-1e9))
        p = softmax_numpy(np, scores)
        x = x + (p @ v).transpose(0, 2, 1, 3).reshape(batch, length,
                                                      width) @ wo
        pre = norm(x, g2, c2) @ w1 + b1
        gelu = np.float32(0.5) * pre * (1 + erf_numpy(
            np, pre * np.float32(0.7071067811865476)))
        return x + gelu @ w2 + b2

    def torch_block(torch):
        functional = torch.nn.functional
        mask = torch.tril(torch.ones(length, length, dtype=torch.bool))

        def prepare(tokens, *weights):
            return (torch.from_numpy(tokens),
                    *[torch.from_numpy(w) for w in weights])

        def run(tokens, embedding, g1, c1, wq, wk, wv, wo, g2, c2, w1, b1,
                w2, b2):
            x = functional.embedding(tokens, embedding)
            batch = x.shape[0]
            h = functional.layer_norm(x, (width,), g1, c1)
            q, k, v = [(h @ m).reshape(batch, length, heads, depth)
                       .transpose(1, 2) for m in (wq, wk, wv)]
            scores = (q @ k.transpose(-1, -2)) * float(scale)
            scores = scores.masked_fill(~mask, -1e9)
            mixed = torch.softmax(scores, dim=-1) @ v
            x = x + mixed.transpose(1, 2).reshape(batch, length, width) @ wo
            pre = functional.layer_norm(x, (width,), g2, c2) @ w1 + b1
            return x + functional.gelu(pre) @ w2 + b2
        return prepare, run

    per_token = 8 * width * width + 4 * width * hidden + 4 * length * width
    cases = []
    for batch in (1, 16):
        tokens = rng.integers(0, vocab, (batch, length))
        cases.append((f"decoder block batch {batch}",
                      batch * length * per_token, jitted, numpy_block,
                      (tokens, *args), torch_block))
    return cases


def rnn_cases(np, gm, rng):
    """One SGD step of examples/train_rnn.py's RNN (tanh, hidden 128,
    sequence 64, batch 32): gm.scan + gm.grad compiled, hand-written NumPy
    backpropagation through time in float32, and PyTorch's autograd over a
    Python loop. Each returns the updated recurrent weights."""
    sys.path.insert(0, os.path.join(root, "examples"))
    import train_rnn
    params = train_rnn.init_params()
    xs, targets = train_rnn.make_batch(rng)
    rate = np.float32(0.01)

    @gm.jit
    def ours(params, xs, targets):
        return params["wh"] - rate * gm.grad(train_rnn.loss_fn)(
            params, xs, targets)["wh"]

    def numpy_step(params, xs, targets):
        p = params
        hs = [np.zeros((xs.shape[1], train_rnn.HIDDEN), np.float32)]
        for x in xs:
            hs.append(np.tanh(x @ p["wx"] + hs[-1] @ p["wh"] + p["b"]))
        prediction = (hs[-1] @ p["wo"] + p["bo"]).reshape(-1)
        d_pred = 2 * (prediction - targets) / np.float32(len(targets))
        dh = d_pred[:, None] @ p["wo"].T
        dwh = np.zeros_like(p["wh"])
        for t in range(len(xs) - 1, -1, -1):
            dz = dh * (1 - hs[t + 1] ** 2)
            dwh += hs[t].T @ dz
            dh = dz @ p["wh"].T
        return p["wh"] - rate * dwh

    def torch_step(torch):
        def prepare(params, xs, targets):
            return ({k: torch.from_numpy(v) for k, v in params.items()},
                    torch.from_numpy(xs), torch.from_numpy(targets))

        def run(params, xs, targets):
            with torch.enable_grad():
                wh = params["wh"].detach().requires_grad_()
                h = torch.zeros(xs.shape[1], train_rnn.HIDDEN)
                for x in xs:
                    h = torch.tanh(x @ params["wx"] + h @ wh + params["b"])
                prediction = (h @ params["wo"] + params["bo"]).reshape(-1)
                loss = ((prediction - targets) ** 2).mean()
                (grad,) = torch.autograd.grad(loss, [wh])
            return (wh - rate * grad).detach()
        return prepare, run

    steps, batch, hidden = xs.shape[0], xs.shape[1], train_rnn.HIDDEN
    flops = 3 * steps * 2 * batch * hidden * (hidden + 2)
    return [("RNN train step seq 64 b32 h128", flops, ours, numpy_step,
             (params, xs, targets), torch_step)]


def models(np, gm, rng):
    """(name, flops, jitted function, numpy function, arguments, torch
    contender or None: torch -> (prepare arguments, run))."""
    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    cases = []
    a, b = f32(512, 512), f32(512, 512)
    cases.append(("matmul 512x512x512", 2 * 512 ** 3,
                  gm.jit(lambda a, b: a @ b), lambda a, b: a @ b, (a, b),
                  None))
    a, b = f32(16, 128, 64), f32(16, 64, 128)
    cases.append(("batched matmul 16x128x64x128", 2 * 16 * 128 * 64 * 128,
                  gm.jit(lambda a, b: a @ b), lambda a, b: a @ b, (a, b),
                  None))

    weights = (f32(784, 256, scale=0.05), f32(256, scale=0.05),
               f32(256, 10, scale=0.05), f32(10, scale=0.05))

    def mlp(x, w1, b1, w2, b2):
        return gm.softmax(gm.relu(x @ w1 + b1) @ w2 + b2)

    def mlp_numpy(x, w1, b1, w2, b2):
        return softmax_numpy(np, np.maximum(x @ w1 + b1, 0) @ w2 + b2)

    mlp_jit = gm.jit(mlp, dynamic_dims={"x": [0]})
    for batch in (1, 64):
        cases.append((f"MLP 784-256-10 batch {batch}",
                      2 * batch * (784 * 256 + 256 * 10), mlp_jit, mlp_numpy,
                      (f32(batch, 784), *weights), None))

    def attention(q, k, v):
        scale = np.float32(1 / np.sqrt(q.shape[-1]))
        return gm.softmax(q @ gm.transpose(k, (0, 2, 1)) * scale) @ v

    def attention_numpy(q, k, v):
        scale = np.float32(1 / np.sqrt(q.shape[-1]))
        return softmax_numpy(np, q @ np.transpose(k, (0, 2, 1)) * scale) @ v

    heads, seq, dim = 8, 128, 64
    cases.append((f"attention {heads}x{seq}x{dim}", 4 * heads * seq * seq * dim,
                  gm.jit(attention), attention_numpy,
                  tuple(f32(heads, seq, dim) for _ in range(3)), None))
    return (cases + cnn_cases(np, gm, rng) + conv_layer_cases(np, gm, rng) +
            decoder_cases(np, gm, rng) + training_cases(np, gm, rng) +
            cnn_training_cases(np, gm, rng) +
            rnn_cases(np, gm, rng))


def per_call_s(function, args, seconds=0.05):
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            function(*args)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls
        calls *= 2


def child(contender, threads, only=""):
    """One round: `name<TAB>seconds per call<TAB>flops` for each model (the
    torch contender skips the models it has no version of)."""
    import numpy as np
    import google_mlir as gm
    torch = None
    if contender == "torch":
        import torch
        torch.set_num_threads(threads)
    rng = np.random.default_rng(0)
    for name, flops, jitted, reference, args, torch_case in models(np, gm,
                                                                   rng):
        if only not in name:
            continue
        if contender == "google":
            got, expected = jitted(*args), reference(*args)
            if not np.allclose(got, expected, rtol=1e-3, atol=1e-4):
                sys.exit(f"error: {name}: google-mlir's result differs from "
                         "numpy's")
            seconds = per_call_s(jitted, args)
        elif contender == "torch":
            if torch_case is None:
                continue
            prepare, run = torch_case(torch)
            prepared = prepare(*args)
            with torch.no_grad():
                got = run(*prepared).numpy()
                if not np.allclose(got, reference(*args), rtol=1e-3,
                                   atol=1e-4):
                    sys.exit(f"error: {name}: torch's result differs from "
                             "numpy's")
                seconds = per_call_s(run, prepared)
        else:
            seconds = per_call_s(reference, args)
        print(f"{name}\t{seconds!r}\t{flops}", flush=True)


def fma_peak():
    """One core's f32 FMA peak (bench/fma_peak.c) in GFLOP/s, or None."""
    import shutil
    import tempfile
    clang = shutil.which("clang-22") or shutil.which("clang")
    if not clang:
        return None
    with tempfile.TemporaryDirectory() as directory:
        binary = os.path.join(directory, "fma_peak")
        subprocess.run([clang, "-O3", "-march=native",
                        os.path.join(root, "bench", "fma_peak.c"), "-o",
                        binary], check=True)
        out = subprocess.run([binary, "20000000"], capture_output=True,
                             text=True, check=True).stdout.split()
    return float(out[0])


def has_torch():
    done = subprocess.run([sys.executable, "-c", "import torch"],
                          capture_output=True)
    return done.returncode == 0


def run_round(contender, threads, only=""):
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX",
               GOOGLE_MLIR_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads if contender == "numpy"
                                        else 1))
    env.pop("OPENBLAS_L2_SIZE", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.join(root, "build", "python"),
                    os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, os.path.abspath(__file__),
                           f"--child={contender}", f"--threads={threads}",
                           f"--models={only}"],
                          env=env,
                          stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(done.returncode)
    return [line.split("\t") for line in done.stdout.splitlines()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=11,
                        help="rounds (processes) per contender (default 11)")
    parser.add_argument("--child", choices=("google", "numpy", "torch"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--models", default="",
                        help="only the models whose name contains this")
    options = parser.parse_args()
    if options.child:
        return child(options.child, int(options.threads), options.models)
    if options.rounds <= 0:
        sys.exit("error: --rounds must be positive")
    try:
        thread_counts = [int(t) for t in options.threads.split(",")]
    except ValueError:
        sys.exit("error: --threads expects comma-separated positive integers")
    if any(t <= 0 for t in thread_counts):
        sys.exit("error: --threads expects comma-separated positive integers")
    peak = fma_peak()
    if peak:
        print(f"FMA peak of one core: {peak:.1f} GFLOP/s (bench/fma_peak.c)")
    contenders = ["google", "numpy"] + (["torch"] if has_torch() else [])
    if "torch" not in contenders:
        print("(python3-torch is not installed: no torch column)")
    flops = {}
    for threads in thread_counts:
        samples = {contender: {} for contender in contenders}
        for round_ in range(options.rounds):
            # Each round starts with the next contender: a process run
            # right after another can be slower (measured: 5-15% on a
            # shared 2-core machine), which a fixed order would pin on one.
            shift = round_ % len(contenders)
            for contender in contenders[shift:] + contenders[:shift]:
                for name, seconds, count in run_round(contender, threads,
                                                      options.models):
                    samples[contender].setdefault(name, []).append(
                        float(seconds))
                    flops[name] = int(count)
        print(f"{threads} thread(s), medians of {options.rounds} rounds")
        print(f"  {'model':<30s} {'google us':>10s} {'numpy us':>10s} "
              f"{'torch us':>10s} {'google GFLOP/s':>15s} "
              f"{'numpy/google':>13s} {'torch/google':>13s}")
        for name in samples["google"]:
            if options.models not in name:
                continue
            ours = statistics.median(samples["google"][name])
            theirs = statistics.median(samples["numpy"][name])
            torch_samples = samples.get("torch", {}).get(name)
            torch_time = statistics.median(torch_samples) \
                if torch_samples else None
            torch_us = f"{torch_time * 1e6:10.1f}" if torch_time else \
                f"{'-':>10s}"
            torch_ratio = f"{torch_time / ours:12.2f}x" if torch_time else \
                f"{'-':>13s}"
            print(f"  {name:<30s} {ours * 1e6:10.1f} {theirs * 1e6:10.1f} "
                  f"{torch_us} {flops[name] / ours / 1e9:15.1f} "
                  f"{theirs / ours:12.2f}x {torch_ratio}", flush=True)
            if name.startswith("conv ") and peak:
                print(f"  {'':<30s} ({flops[name] / ours / 1e9 / (peak * threads):.0%}"
                      f" of {threads} core(s)' FMA peak)")

if __name__ == "__main__":
    main()
