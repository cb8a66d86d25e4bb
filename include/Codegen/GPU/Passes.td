//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//
//
// What the extreme pipeline adds for target=nvvm and target=rocdl: device
// buffers for the host function, linalg ops mapped onto blocks and threads,
// and kernels serialized into device binaries.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_CODEGEN_GPU_PASSES_TD
#define GOOGLE_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuDeviceBuffersPass
    : Pass<"google-gpu-device-buffers", "::mlir::func::FuncOp"> {
  let summary = "Put the buffers of a bufferized host function on the GPU";
  let description = [{
    After bufferization, the memrefs of a host function hold tensor data,
    which lives in device memory when the function runs on a GPU (its
    arguments are device buffers too):

    ```mlir
    %a = memref.alloc(%n) : memref<?xf32>
    => %a = gpu.alloc (%n) : memref<?xf32>

    %c = memref.get_global @cst : memref<4xf32>
    => %c = gpu.alloc () : memref<4xf32>
       %h = memref.get_global @cst : memref<4xf32>
       gpu.memcpy %c, %h : memref<4xf32>, memref<4xf32>

    memref.copy %x, %y : memref<4xf32> to memref<4xf32>
    => gpu.memcpy %y, %x : memref<4xf32>, memref<4xf32>
    ```

    A copy between strided views becomes a `linalg.copy`, which the mapping
    pass turns into a kernel. A rank-0 buffer the host reads (a padding
    value, the count of a check) is copied to a host `memref.alloca` first.
    A scalar the host writes (`memref.store`, from a `tensor.from_elements`)
    becomes a `linalg.fill` of it: a kernel that takes it as an argument.
    Runs before buffer deallocation, which then
    frees the device buffers as it frees any allocation. Functions inside
    `gpu.module`s are left alone.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numAllocs", "num-allocs", "Allocations moved to the device">,
    Statistic<"numConstants", "num-constants", "Constants copied to the device">,
    Statistic<"numHostReads", "num-host-reads",
              "Scalars copied back for the host to read">,
    Statistic<"numHostWrites", "num-host-writes",
              "Scalars the host writes, filled on the device">,
  ];
}

def GpuTileToBlocksPass
    : Pass<"google-gpu-tile-to-blocks", "::mlir::func::FuncOp"> {
  let summary = "Distribute GPU kernels over blocks on tensors, before "
                "bufferization";
  let description = [{
    The GPU's share of the tensor-level code generation (the CPU's is
    `--google-tile-and-vectorize`): ops that one kernel runs block by block
    are tiled on tensors into an `scf.forall` mapped to GPU blocks, with
    the ops that kernel also runs fused in. Bufferization then gives each
    block views of its rows and buffers of its own for per-block values,
    and `--google-map-to-gpu` turns the loop into the kernel's launch.

    Today this takes the row chains (softmax, layer norm: static rows whose
    reductions and elementwise ops `--google-map-to-gpu` runs in one kernel
    with a block per row): the chain's last op is tiled by one row, the
    chain fused in, what the rest of the function reads of it yielded;
    the elementwise op whose result the chain's last op reads element by
    element (softmax's exponentials) writes into the block's slice of the
    output, which the last op overwrites in place.
    Row reductions outside chains (long rows along the input's innermost
    dimension, static or dynamic) are tiled by one output element, with
    the fill of their output and the elementwise ops that go on with the
    row's value alone (reduce_mean's divide) fused in: a block reduces one
    row, and its thread 0 finishes the row's work.

    ```mlir
    %m = linalg.reduce ins(%x : tensor<64x4096xf32>) outs(%fill : tensor<64xf32>)
    %e = linalg.generic ins(%x, %m) outs(%empty) { exp(x - m) }
    ...
    %p = linalg.generic ins(%e, %s) outs(%empty) { e / s }
    => scf.forall (%row) in (64) shared_outs(%out = %empty) {
         // the chain on tensor<1x4096xf32> and tensor<1xf32> slices
       } {mapping = [#gpu.block<linear_dim_0>]}
    ```

    Contractions whose kernels' blocks own square tiles of C are tiled by
    that tile (one batch), with the fill of their accumulator and their
    elementwise epilogue fused in: the tensor-core kernels (`mma-sync`,
    `tf32`, `mfma`: 128 x 128), vector tiles (f32: 16 x 4 or 16 x 8) and
    shared tiles (16 x tile-size). The strategy (`chooseContractionKernel`,
    shared with `--google-map-to-gpu`) is recorded on the tiled contraction
    as `google.gpu_kernel = {kernel = "mma_sync", size = 128}`; the kernels
    that read A and B as 16-byte vectors check after bufferization that
    their buffers can be aligned (static, no offset) and at run time that
    they are, with the shared-tile kernel on the same tiles otherwise.

    With `fused-attention`, an attention (matmul, steps on the scores,
    softmax, matmul with V, an elementwise epilogue) is tiled by one batch
    (one loop iteration without a batch), all its ops fused in: the kernel
    splits the rows of queries into blocks itself. A chain between two
    contractions that is not such an attention on tensors stays whole, as
    do the contractions next to it, for `--google-map-to-gpu` to match on
    buffers. The fills that a contraction's kernel absorbs stay out of
    chains. Split-K and register-tile contractions, elementwise ops and
    full reductions are mapped on buffers by `--google-map-to-gpu` (their
    threads take consecutive elements of the collapsed iteration space).
    The elementwise epilogue of such a contraction, when it writes an empty
    tensor of the product's type, writes the product in place instead:
    the kernel then takes it in whatever buffer bufferization would have
    given its result (one the contraction reads, reused, would keep it
    apart).
  }];
  let options = [
    Option<"fusedAttention", "fused-attention", "bool", /*default=*/"false",
           "Tile attentions for --google-map-to-gpu's fused-attention "
           "kernel">,
    Option<"tileSize", "tile-size", "int64_t", /*default=*/"4",
           "Rows and columns of C per thread in contractions (as "
           "--google-map-to-gpu's)">,
    Option<"mmaSync", "mma-sync", "bool", /*default=*/"false",
           "As --google-map-to-gpu's: its tensor-core kernels' contractions "
           "are tiled for them">,
    Option<"mfma", "mfma", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"mfmaBf16", "mfma-bf16", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "As --google-map-to-gpu's: its contractions stay whole">,
    Option<"warpDots", "warp-dots", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numTiledChains", "num-tiled-chains",
              "Row chains tiled into blocks">,
    Statistic<"numTiledReductions", "num-tiled-reductions",
              "Row reductions tiled into blocks">,
    Statistic<"numTiledContractions", "num-tiled-contractions",
              "Contractions tiled into blocks">,
    Statistic<"numTiledAttentions", "num-tiled-attentions",
              "Attentions tiled into blocks">,
    Statistic<"numEpiloguesInPlace", "num-epilogues-in-place",
              "Epilogues of untiled contractions made to write the product">,
  ];
}

def GpuFoldOperandTransposesPass
    : Pass<"google-gpu-fold-operand-transposes", "::mlir::func::FuncOp"> {
  let summary = "Read the transposes of matmuls' operands through where "
                "their GPU kernels load either layout";
  let description = [{
    Some GPU contraction kernels load A and B either way round as fast: the
    16-bit tensor-core kernels take B as K x N or N x K (K-major: `ldmatrix`
    without `.trans`, wgmma without `transposeB`), mma.sync and MFMA A as
    M x K or K x M (`ldmatrix.trans`), the f32 vector-tile kernel A and B
    each either way (it loads each along its innermost dimension), shared
    tiles any layout (each operand copied along its innermost dimension),
    split K and register tiles A as M x K or K x M (a warp's threads
    read the same rows of A), and warp dots (`warp-dots`) B^T with A as
    M x K (a warp reads a row of each). So where A or B is a transpose of
    the last two dimensions (`x @ w.T`: nn.Linear's weights, attention's
    `q @ k^T`; `x.T @ dy`: weight gradients), the matmul reads the
    transpose's input instead, through a map with the last two results
    swapped, when the kernel it then takes (chooseContractionKernel, with
    these options, as `--google-gpu-tile-to-blocks` chooses) is one of
    those and no slower than the one it took (wgmma > mma.sync or MFMA >
    vector tiles > shared tiles: wgmma keeps A^T's transpose). Both
    transposes go in when they can, else one. Matmuls on TF32's mma.sync,
    which wants its operands as they are, are left alone. A transpose goes
    when nothing else reads it: one pass over the operand and a buffer of
    its size saved.

    ```mlir
    %t = linalg.transpose ins(%w : tensor<NxKxf16>) outs(...) permutation = [1, 0]
    %c = linalg.matmul ins(%x, %t : tensor<MxKxf16>, tensor<KxNxf16>) ...
    => %c = linalg.generic {(m, n, k): A (m, k), B (n, k), C (m, n)}
              ins(%x, %w : tensor<MxKxf16>, tensor<NxKxf16>) ...
    ```

    Functions inside `gpu.module`s are left alone.
  }];
  let options = [
    Option<"tileSize", "tile-size", "int64_t", /*default=*/"4",
           "As --google-map-to-gpu's">,
    Option<"mmaSync", "mma-sync", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"mfma", "mfma", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"mfmaBf16", "mfma-bf16", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
    Option<"warpDots", "warp-dots", "bool", /*default=*/"false",
           "As --google-map-to-gpu's">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numFolded", "num-folded",
              "Matmuls reading their operands' transposes through">,
  ];
}

def GpuTf32OperandsPass
    : Pass<"google-gpu-tf32-operands", "::mlir::func::FuncOp"> {
  let summary = "Round the operands of TF32 wgmma matmuls and make B K-major";
  let description = [{
    sm_90's wgmma reads TF32 operands K-major only (no transposed B, unlike
    16-bit types) and straight from shared memory, where TMA copies them
    unrounded (the tensor cores drop the 13 low mantissa bits). So before
    a plain f32 matmul (or batch matmul) that fits the TF32 wgmma kernel
    (`fitsWgmmaTf32`: M and N at least 128, K at least 32 and a multiple
    of 4, static, dense), two elementwise ops round A and B to TF32 (to
    nearest, ties away from zero, as `cvt.rna.tf32.f32` and the mma.sync
    TF32 kernel round; NaNs become the canonical NaN), the second one
    writing B transposed, N x K; the contraction reads them and is marked
    `google.tf32_operands` for `--google-map-to-gpu`'s wgmma kernel:

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<MxKxf32>, tensor<KxNxf32>) ...
    => %ar = linalg.generic ins(%a) outs(tensor<MxKxf32>) { round }
       %bt = linalg.generic ins(%b) outs(tensor<NxKxf32>) { round, (n, k) <- (k, n) }
       %c = linalg.generic {(m, n, k): A (m, k), B (n, k), C (m, n)}
              ins(%ar, %bt) ... {google.tf32_operands}
    ```

    Matmuls that split K (small outputs) are left alone. Functions inside
    `gpu.module`s are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numContractions", "num-contractions",
              "Contractions given rounded, K-major operands">,
  ];
}

def GpuHoistEpiloguesPass
    : Pass<"google-gpu-hoist-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Move elementwise ops on buffers up to the op whose result "
                "they read, for --google-map-to-gpu to fuse";
  let description = [{
    A training step updates each parameter at its end, after every
    gradient is computed: `b1 - lr * db1` is far from the reduction that
    writes `db1`, so `--google-map-to-gpu` gives it a kernel of its own.
    This pass moves such an elementwise `linalg.generic` on buffers (one
    whose results nothing after it in its block reads: it feeds no other
    kernel) up to just after the last op it depends on, when that op is
    not already followed by an op reading what it writes (an epilogue of
    its own):

    ```mlir
    linalg.reduce ins(%dy : ...) outs(%db1 : memref<256xf32>) dimensions = [0]
    <ops touching neither %db1 nor %b1>
    linalg.generic ins(%b1, %db1 ...) outs(%db1 ...)   // b1 - lr * db1
    => linalg.reduce ..., then the generic, then the other ops
    ```

    An elementwise op that later ops read moves too, when the op it moves
    after is a contraction that `--google-map-to-gpu` builds from the op
    itself (split K, register tiles) and whose kernel then takes it in as
    its epilogue (`getFusableEpilogue`; else it stays where it was): a
    gradient's sum of the dX of Q, K and V, written in place of the last
    product, after a weight gradient.

    An op depends on another that writes a buffer it reads or writes, or
    reads a buffer it writes; buffers are compared by the allocation or
    function argument they view (distinct ones do not alias; anything
    else, and ops of unknown effects such as calls, count as
    dependences). Run-time checks (`cf.assert`) do not order it. Ops that
    define its operands between the two (views, constants, allocations)
    move with it.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numHoisted", "num-hoisted", "Elementwise ops moved">,
  ];
}

def MapToGpuPass : Pass<"google-map-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Turn every linalg op of a host function into a GPU launch";
  let description = [{
    Each linalg op on memrefs becomes a `gpu.launch` in which every thread
    computes one element of the op's parallel iteration space (its
    reductions run in the thread):

    ```mlir
    linalg.generic {iterator_types = ["parallel", "parallel"]} ...
    => gpu.launch blocks(%bx, ...) in (ceildiv(M * N, 256), 1, 1)
                  threads(%tx, ...) in (256, 1, 1) {
         // i, j = delinearize(%bx * 256 + %tx); guarded against M * N
       }
    ```

    The parallel dimensions are collapsed into one, so that consecutive
    threads handle consecutive innermost elements (coalesced accesses), and
    tiled by the block size. Elementwise ops that read an input along
    another dimension than the output's innermost (transposes, and the
    elementwise ops on them) would read that input strided: they go in
    32 x 32 tiles of those two dimensions instead, a block of 32 x 8
    threads per tile, the input copied into a tile of shared memory along
    its rows and read back along its columns after a barrier (rows padded
    by one element: no bank conflicts), so that both sides are
    coalesced. Ops whose reduction dimensions come first are
    interchanged so that their parallel dimensions lead; ops without
    parallel dimensions (full reductions, rank 0) run on one thread.

    Contractions (matmul, batch matmul: C[b, m, n] += A[b, m, k] *
    B[b, k, n] in any layout) take in the fill before them and an
    elementwise epilogue after them (bias + relu), and hold tiles of C in
    registers across K. When M and N span a block's tile (16 `tile-size`,
    or are dynamic) and K a slice of 16, blocks of 16x16 threads own
    (16 `tile-size`)^2 tiles of C: per slice of K they stage A's and B's
    slices in shared memory (coalesced, indices clamped into range), wait
    at a barrier, and each thread updates its `tile-size` x `tile-size`
    tile from shared memory. Static f32 matmuls in whole 64x64 tiles
    (128x128 when there are at least 512) get vector tiles instead: slices
    staged through registers as vectors of 4 (along each operand's
    innermost dimension: A and B either way round) while the previous
    slice is computed from shared memory. With `mma-sync` (the pipeline sets it for
    NVIDIA sm_80 and later), f16 and bf16 matmuls accumulating in f32 in
    whole 128x128 tiles (K a multiple of 32) run on tensor cores through
    `nvgpu.mma.sync` m16n8k16 (bf16 lowered by
    `--google-lower-bf16-mma-sync`), A read M x K or K x M (A^T, staged as
    B is and read by `ldmatrix.trans`), B read K x N or N x K (B^T, staged
    as A is and read by `ldmatrix` without `.trans`); with `mfma` (the
    pipeline's `mfma`
    option, off by default: not yet run on an AMD GPU), the f16 ones run on
    CDNA matrix cores through `amdgpu.mfma` 16x16x16 (4 waves of 64 lanes
    per 128x128 tile), and with `mfma-bf16` (gfx90a and later) the bf16
    ones too (A M x K and B K x N only). With `tf32` (the pipeline's `tf32` option, an
    opt-in: results change), f32 matmuls of the same shapes run on tensor
    cores too, through `nvgpu.mma.sync` m16n8k8 in TF32: their inputs are
    rounded to 10-bit mantissas (to nearest, ties away from zero) as they
    are staged. With `async-copy` (and `mma-sync`; the pipeline sets it
    with `mma-sync` unless its `async-copy=false`), the 16-bit tensor-core
    kernels copy their slices to shared memory by cp.async
    (`nvgpu.device_async_copy`) into three stages whose rows' 16-byte
    chunks are swizzled instead of padded: the slice two ahead is copied
    while the current one is computed, with one barrier per slice. The
    mma.sync kernels' blocks are 8 warps, each 64x32 of C, or with
    `mma-sync-warps=4` (the pipeline's option, off by default: not yet
    run on a GPU) 4 warps, each 64x64; with `mma-sync-blocks-per-sm=2`
    their launches ask for kernels of which each SM holds two blocks
    (`nvvm.minctasm`, set by `--google-outline-kernels`: ptxas then keeps
    the 8-warp kernel within 128 registers, where it took 130 and one
    block per SM). With
    `wgmma` (and `mma-sync`; the pipeline's `wgmma` option, off by
    default: not yet run on a GPU, needs `chip=sm_90a`), those (batched
    or not) with M and N at least 128, K at least 64 and a multiple of 8
    and, where B is K x N, N a multiple of 8 and, in a batch, K a
    multiple of 64 run on the warpgroup tensor cores instead, in partial
    tiles too (TMA's zero fill past A's and B's edges; B^T's slices are
    one box of 128 rows of K, read K-major: `--google-lower-k-major-wgmma`):
    blocks of one warpgroup own 128x128 tiles (of
    two, with `wgmma-warpgroups=2`: 256x128 tiles, four stages),
    `nvgpu.warpgroup.mma` (wgmma m64n128k16) reads A's and B's slices of
    64 from three stages of dynamic shared memory, where thread 0 loads
    them by TMA (`nvgpu.tma.async.load`, 128-byte swizzle, one mbarrier
    per stage) from tensor maps the host makes before the launch
    (`nvgpu.tma.create.descriptor`); with `wgmma-specialized`, a producer
    warpgroup before the MMA warpgroups loads each stage once the MMA
    warps released it (a second mbarrier per stage, an arrival per warp),
    without block barriers in the K loop. With `wgmma` and `tf32`, the
    f32 matmuls that `--google-gpu-tf32-operands` gave rounded, K-major
    operands (`google.tf32_operands`: A, and B^T) run on the same kernel
    in TF32: slices of 32 f32 per row, both operands K-major, the op
    marked `google.tf32` for `--google-lower-k-major-wgmma` (wgmma m64n128k8
    of TF32). Products are accumulated with `contract`,
    so that multiply-adds fuse. Small static outputs (at most 64 Ki elements)
    over a long static K (at least 128) split K instead: blocks of 32
    output elements x up to 8 chunks of K, whose partial sums meet in
    shared memory; with `warp-dots` (the pipeline's `warp-dots`
    option, off by default: not yet run on a GPU), where A is M x K and
    B N x K (`x @ w.T`), warp dots:
    blocks of 8 warps, each owning up to 8 rows of a column of C (fewer
    while that leaves under 4096 warps), its lanes 32 apart along K
    (reading rows of A and B^T coalesced, B^T's once for the rows), their
    sums added by a butterfly of shuffles (with `warp-shuffles`, 32-bit
    sums) or in shared memory. Other contractions give each thread such a tile
    (smaller when a static output would give fewer than 16 Ki threads),
    loading a column of A and a row of B per step from global memory.
    Only elements in range are stored.

    Reductions along the input's innermost dimension over rows of at least
    256 elements (or dynamic) get a block of 256 threads per row: strided
    partials, then a tree in shared memory. Consecutive ops over the same
    static rows with such reductions between them (softmax, layer norm)
    share one such kernel: per-row ops run on thread 0 between barriers,
    elementwise ops strided along the row, each reduction followed by a
    barrier; a chain ends before an op that would read another thread's
    element of a buffer it writes. With `warp-shuffles` (NVIDIA), chains
    over rows of 256 to 4096 elements with 32-bit reductions keep the row
    in registers instead (at most 16 elements per thread, each loaded
    once; every thread computes the per-row ops), reduce across each warp
    by `gpu.shuffle` and across the warps with one barrier, and store each
    element the chain writes once, at the end (nothing of a fresh buffer
    only the chain uses). Chains over rows of 33 to 255 such elements
    run a warp per row the same way (8 rows per block, no shared memory),
    as do reductions alone over such rows.
    Chains over rows of at most 32 elements run a thread per row (a
    classifier's softmax), the row in its registers too, with or without
    `warp-shuffles`. With `fused-attention` (and `warp-shuffles`; the
    pipeline's `fused-attention` option, off by default: not yet run on a
    GPU), attention -- a matmul, elementwise ops on its scores, softmax's
    ops and a second matmul, f32 and static, depths of 16 to 64 -- runs in
    one kernel: a block per 64 rows walks the keys in tiles of 64 (the
    last tiles of rows and keys may be partial), keeps its scores in
    registers and each row's maximum and sum online (flash attention), so
    that the scores never reach memory.

    Consecutive elementwise ops left to kernels of their own that share
    their static loops, with nothing but effect-free ops and allocations
    between them, become one generic (one kernel) when every buffer they
    write is accessed among them only at the thread's element: each op's
    element is computed in turn, what an earlier one computed read from
    registers, each buffer written once (not at all when only they use
    it).

    A copy (linalg.copy, linalg.transpose, or a generic yielding its input
    read through a permutation) of a buffer's reshapes that keeps the
    innermost dimension innermost (attention's heads: reshape, transpose
    (0, 2, 1, 3)) gets no kernel when the kernels before it only store
    into that buffer and nothing else reads it: their stores go to the
    elements the copy would write, and the buffer goes. Nothing from the
    first of them on may touch the copy's output, or else the one kernel
    moves down to the copy, past ops that neither access what it writes
    nor write what it reads.

    Other reductions take in the fill of their output, the elementwise op
    that writes their input into a buffer nothing else reads (computed
    where it is read) and an elementwise epilogue of their result (a
    mean's scale), where no thread could read what another writes.
    Reductions of every dimension run in two kernels (up to 1024 blocks
    of partials, then one block), or one block alone for a static count
    of 256 to 4096 elements (one thread below); column reductions (every reduced
    dimension outside every kept one, at least 32 rows: a bias's
    gradient) on blocks of 32 columns x 8 rows of threads, the rows split
    over several blocks and a second kernel when there are few columns;
    the rest with a thread per output element. Float adds are
    reassociated (SPEC).

    Kernels tiled on tensors by `--google-gpu-tile-to-blocks` arrive as
    `scf.forall` loops mapped to blocks: each becomes its kernel's launch,
    a block per iteration, the body (one block's work on views of its rows
    or tile) emitted as above: row chains, row reductions (thread 0 also
    runs the fill before and the elementwise ops on the row's value after;
    the row's values live in workgroup memory), contractions (the kernel
    recorded on the contraction, `google.gpu_kernel`; a tile larger than
    the kernel's takes several blocks; kernels reading 16-byte vectors run
    when the tiles' buffers are aligned at run time, the shared-tile
    kernel otherwise; the product the epilogue reads stays in registers)
    and, with `fused-attention`, a batch's attention (the blocks of its
    tiles of rows per iteration; its buffers in between are dropped). A
    loop whose body is no kernel's runs its iterations one after another
    on the host.
    Afterwards no memory access is left outside a `gpu.launch`; the pass
    fails, naming the op, if one is.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"tileSize", "tile-size", "int64_t", /*default=*/"4",
           "Rows and columns of C per thread in contractions">,
    Option<"mmaSync", "mma-sync", "bool", /*default=*/"false",
           "f16 and bf16 matmuls on tensor cores through nvgpu.mma.sync (NVIDIA "
           "sm_80 and later)">,
    Option<"mfma", "mfma", "bool", /*default=*/"false",
           "f16 matmuls on matrix cores through amdgpu.mfma (AMD CDNA: "
           "gfx908, gfx90a, gfx94x, gfx950)">,
    Option<"mfmaBf16", "mfma-bf16", "bool", /*default=*/"false",
           "With mfma: bf16 matmuls too, through amdgpu.mfma 16x16x16 of "
           "bf16 (v_mfma_f32_16x16x16bf16_1k: gfx90a and later)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "f32 matmuls on tensor cores in TF32 through nvgpu.mma.sync "
           "m16n8k8 (NVIDIA sm_80 and later; inputs rounded to 10-bit "
           "mantissas)">,
    Option<"warpShuffles", "warp-shuffles", "bool", /*default=*/"false",
           "Row chains (softmax, layer norm) keep rows in registers and "
           "reduce across warps by gpu.shuffle (NVIDIA's 32 lanes)">,
    Option<"fusedAttention", "fused-attention", "bool", /*default=*/"false",
           "With warp-shuffles: softmax(Q K^T) V (f32, static, 64-row tiles) "
           "in one kernel with an online softmax instead of four or more">,
    Option<"asyncCopy", "async-copy", "bool", /*default=*/"false",
           "With mma-sync: 16-bit tensor-core kernels copy their slices to "
           "shared memory by cp.async, in three swizzled stages, instead of "
           "through registers">,
    Option<"mmaSyncWarps", "mma-sync-warps", "int64_t", /*default=*/"8",
           "With mma-sync: warps per block of the mma.sync kernels, 8 "
           "(each 64x32 of the block's 128x128 tile of C) or 4 (each "
           "64x64)">,
    Option<"mmaSyncBlocksPerSM", "mma-sync-blocks-per-sm", "int64_t",
           /*default=*/"1",
           "With mma-sync: blocks of the mma.sync kernels that each SM must "
           "hold at once, 1 or 2 (nvvm.minctasm on the kernel: ptxas caps "
           "its registers to fit)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "With mma-sync: f16 and bf16 matmuls (batched or not; M, N at "
           "least 128, K at least 64, K and N multiples of 8) on sm_90a's "
           "warpgroup tensor cores (nvgpu.warpgroup.mma, A and B loaded by "
           "TMA); with tf32 too, the f32 ones --google-gpu-tf32-operands "
           "prepared, in TF32">,
    Option<"wgmmaWarpgroups", "wgmma-warpgroups", "int64_t",
           /*default=*/"1",
           "With wgmma: warpgroups per block, 1 (128x128 tiles of C, 3 "
           "stages) or 2 (256x128 tiles, 4 stages, where M is a multiple "
           "of 256)">,
    Option<"wgmmaSpecialized", "wgmma-specialized", "bool",
           /*default=*/"false",
           "With wgmma: warp-specialized, one more warpgroup (the producer) "
           "loads the stages as the MMA warpgroups release them through "
           "mbarriers, instead of a block barrier per slice">,
    Option<"warpDots", "warp-dots", "bool", /*default=*/"false",
           "Split K's x @ w.T (A M x K, B N x K) as warp dot products: "
           "each warp owns rows of a column of C, its lanes read rows of "
           "A and B^T along K">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "GPU launches created">,
    Statistic<"numFusedProducers", "num-fused-producers",
              "Elementwise ops computed inside the reduction reading them">,
    Statistic<"numElementwiseRuns", "num-elementwise-runs",
              "Runs of elementwise ops merged into one kernel">,
    Statistic<"numFoldedCopies", "num-folded-copies",
              "Permuted copies folded into their writers' stores">,
  ];
}

def GpuMergeLaunchesPass
    : Pass<"google-gpu-merge-launches", "::mlir::func::FuncOp"> {
  let summary = "Run consecutive independent small kernels as one launch";
  let description = [{
    A training step's kernels are often small and independent of their
    neighbours: the Q, K and V projections, a weight's gradient beside the
    input's, the transposes of several weights, the parameter updates. Each
    launch costs a few microseconds of overhead and leaves the GPU idle as
    it drains; a few hundred blocks each do not fill it. This pass merges a
    `gpu.launch` with the first later one of its block that can join it,
    moving it down past the ops between them: memory-neutral ones (views,
    constants, allocations, run-time checks) and up to 16 others (launches,
    copies, branches) that do not depend on it (it stops at the first that
    does). Two launches join when:

    - neither writes a buffer the other reads or writes (buffers compared
      by their allocation or function argument, see `BufferAccesses`);
    - their grids and blocks are static, their blocks of as many threads,
      and the later one has at most `max-blocks` blocks (as had each
      member of the earlier one);
    - both are synchronous, of one block of ops, without dynamic shared
      memory, clusters, kernel attributes, tensor-core (`nvgpu`, `amdgpu`)
      ops or ops reading their ids other than through the launch's
      arguments, and their shared memory together fits 48 KB.

    The merged launch, where the later one was, has a 1-D grid of both
    grids' blocks: a block below the first's count runs the first's body,
    the others the second's, each with its own block ids and grid (the
    branch is uniform across a block, so barriers in it are too). Blocks
    of one shape keep it; of different shapes (32 x 8 and 256) they are
    1-D, each member's thread ids taken from the linear one, x fastest as
    CUDA orders them, so that the same threads make each warp. Merging
    goes on from the merged launch.

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, ...) threads(...) { A }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, ...) threads(...) { B }
    => gpu.launch blocks(%bx, ...) in (%gx = %c24, ...) threads(...) {
         scf.if %bx < 16 { A } else { B with %bx - 16 }
       }
    ```
  }];
  let options = [
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"2112",
           "The most blocks of a launch that joins another (two waves of "
           "256-thread blocks on an H100's 132 multiprocessors: larger "
           "launches amortize theirs)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numMerged", "num-merged", "Launches merged into the one before">,
  ];
}

def CheckKernelBoundsPass
    : Pass<"google-check-kernel-bounds", "::mlir::func::FuncOp"> {
  let summary = "Check at run time that every memory access of a GPU "
                "kernel stays inside its buffer (a debugging aid: slow)";
  let description = [{
    Puts a `cf.assert` in front of every memory access in the body of each
    `gpu.launch`: those `--google-check-bounds` checks on the host (memref
    loads, stores and subviews, vector loads and stores, transfers that
    must stay in bounds), and the GPU's own: `nvgpu.ldmatrix` over its
    lane's row of 16 bytes, `nvgpu.device_async_copy` over the elements it
    reads and writes.

    ```mlir
    %r = nvgpu.ldmatrix %s[%i, %j] {numTiles = 4 : i32, transpose = false}
        : memref<128x40xf16, 3> -> vector<4x2xf16>
    => %ok = (%i, %j) and the 8 halves from %j inside %s
       cf.assert %ok, "nvgpu.ldmatrix at loc(...): out-of-bounds access"
    ```

    The pipeline's `check-bounds=true` runs it on GPU targets after
    `--google-map-to-gpu`. A failed check in a kernel ends the call with
    the GPU's error: on NVIDIA, `cf.assert` lowers to CUDA's `__assertfail`
    (the driver prints the message; the call fails with
    CUDA_ERROR_ASSERT); on AMD see `--google-lower-kernel-asserts`. The
    GPU emulation on the host (`--google-test-gpu-mapping-on-host`) makes
    the same checks.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def LowerKernelAssertsPass
    : Pass<"google-lower-kernel-asserts", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the cf.assert ops of GPU kernels to a printf and a "
                "trap";
  let description = [{
    MLIR 22's `--convert-gpu-to-rocdl` cannot lower `cf.assert` (it emits
    an address of a global it never defines). This replaces each
    `cf.assert` of device code with a branch to a block that prints
    `google-mlir: run-time check failed: <message>` through `gpu.printf`
    and traps (`llvm.intr.trap`), which ends the kernel and fails the
    call. Run before `--convert-gpu-to-rocdl`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PassTensorMapsAsPointersPass
    : Pass<"google-pass-tensor-maps-as-pointers", "::mlir::ModuleOp"> {
  let summary = "Kernels take TMA tensor maps as pointers to device memory";
  let description = [{
    A tensor map (`!nvgpu.tensormap.descriptor`) made on the host by
    `nvgpu.tma.create.descriptor` lives in device memory (see the runtime's
    `mgpuTensorMapEncodeTiledMemref`), and a kernel gets its address.
    Upstream's lowerings convert the type in NVGPU ops only, not in kernel
    signatures or launches: this makes outlined kernels take `!llvm.ptr`
    arguments (cast back to the tensor map's type at the kernel's entry)
    and launches pass the host's descriptor cast to `!llvm.ptr`. Both casts
    meet their converted counterparts when NVGPU lowers to NVVM (kernels)
    and to LLVM (the host), and fold away.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineKernelsPass : Pass<"google-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline gpu.launch bodies into kernels that keep the "
                "attributes their launches asked for";
  let description = [{
    Upstream's `--gpu-kernel-outlining`, which drops a launch's attributes,
    then the attributes that each launch asked its kernel to have (a
    dictionary, `google.kernel_attrs`, set by `--google-map-to-gpu`) on the
    kernel made of it: launch bounds such as `nvvm.minctasm`, which the
    NVVM lowering turns into PTX's `.minnctapersm`.

    ```mlir
    gpu.launch blocks(...) threads(...) { ... }
        {google.kernel_attrs = {nvvm.minctasm = 2 : i32}}
    => gpu.func @f_kernel(...) kernel attributes {known_block_size = ...,
           nvvm.minctasm = 2 : i32}
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MergeKernelModulesPass
    : Pass<"google-merge-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Put all outlined kernels in one gpu.module, with device "
                "symbol names";
  let description = [{
    Kernel outlining makes one `gpu.module` per kernel; compiling each costs
    an LLVM and ptxas (or lld) run. This moves every kernel into the first
    `gpu.module` (renamed apart when names clash) and points the launches at
    it:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel ... }
    gpu.module @f_kernel_0 { gpu.func @f_kernel ... }
    gpu.launch_func @f_kernel_0::@f_kernel ...
    => gpu.module @f_kernel { gpu.func @f_kernel ... gpu.func @f_kernel_0 ... }
       gpu.launch_func @f_kernel::@f_kernel_0 ...
    ```

    Kernel names become PTX identifiers and ELF symbols: characters other
    than letters, digits and `_` become `_` (a function `@"a.b"` gets the
    kernel `@a_b_kernel`). Modules whose targets or attributes differ, or
    that hold more than one kernel, are left apart. Workgroup buffers get a
    16-byte alignment (`llvm.align`), so that kernels may read them as
    vectors.
  }];
}

def LowerBf16MmaSyncPass
    : Pass<"google-lower-bf16-mma-sync", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower nvgpu.mma.sync of bf16 to nvvm.mma.sync";
  let description = [{
    MLIR 22's `--convert-nvgpu-to-nvvm` cannot lower `nvgpu.mma.sync` of
    bf16 operands ("failed to deduce operand PTX types"). This lowers the
    m16n8k16 form the tensor-core kernels emit, with f32 accumulators, to
    `nvvm.mma.sync` (PTX `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`):
    each pair of bf16 of A's and B's fragments as one i32 register, as PTX
    passes them; C and D as four f32.

    ```mlir
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    => nvvm.mma.sync A[4 x i32] B[2 x i32] C[4 x f32]
           {multiplicandAPtxType = #nvvm.mma_type<bf16>, shape = m16n8k16, ...}
    ```

    Run before `--convert-nvgpu-to-nvvm`; other `nvgpu.mma.sync` ops are
    left to it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def LowerKMajorWgmmaPass
    : Pass<"google-lower-k-major-wgmma", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower wgmma of K-major B (16-bit B^T, and TF32) to NVVM";
  let description = [{
    MLIR 22's lowering of `nvgpu.warpgroup.mma` steps the descriptors
    right only for 16-bit A and transposed (MN-major) B, and its op takes
    no 32-bit operands (the verifier wants the `tf32` type, whose 19 bits
    memrefs cannot lay out). This pass lowers the wgmma kernel's other
    ops to NVVM's wgmma ops itself:

    - 16-bit (f16, bf16) ops without `transposeB`: B^T's slice is K-major,
      rows of 64 halves as A's (`x @ w.T`, see
      `--google-gpu-fold-operand-transposes`);
    - TF32: the kernel describes its K-major f32 tiles as 16-bit ones of
      twice the depth (the same bytes) and marks the op `google.tf32`.

    Per 64 rows of A and 32 bytes of K (16 halves, or 8 f32), one
    `wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16` (`bf16`, or
    `k8.f32.tf32.tf32`), A's descriptor advanced by 64 rows (8 KiB) and 32
    bytes, B's by 32 bytes, between one fence and one commit and wait of
    the group (as `--convert-nvgpu-to-nvvm` brackets its ops). The
    accumulator and the descriptors cross over as
    `--convert-nvgpu-to-nvvm` converts them (unrealized casts that it
    reconciles). A wgmma on tiles that TMA loads as f32 without the mark
    is an error. Run before `--convert-nvgpu-to-nvvm`; 16-bit ops with
    `transposeB` are left to it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def SerializeKernelsPass
    : Pass<"google-serialize-kernels", "::mlir::ModuleOp"> {
  let summary = "Serialize every gpu.module into a device binary";
  let description = [{
    Replaces each `gpu.module` (lowered to NVVM or ROCDL, with a target
    attribute) with a `gpu.binary`:

    - `#nvvm.target`: a fatbin holding the cubin that ptxas compiled and the
      PTX, so that newer drivers can compile the PTX for their GPU. Without
      a CUDA toolkit (ptxas and fatbinary), the PTX alone, which the driver
      compiles when the module loads; a warning says so once per process.
      The PTX is emitted by LLVM's NVPTX backend and needs no toolkit at
      all; libdevice is linked in when the toolkit has it (without it, the
      pipeline approximates math functions: `--google-approximate-math`).
    - `#rocdl.target`: an HSA code object, linked by `<rocm>/llvm/bin/ld.lld`
      with the device libraries from `<rocm>/amdgcn/bitcode` that the kernels
      call.

    The toolkit is the `toolkit` option, else the environment (`CUDA_HOME`,
    `CUDA_ROOT`, `CUDA_PATH`; `ROCM_PATH`, `ROCM_ROOT`, `ROCM_HOME`), else
    `/usr/local/cuda`, or `/opt/rocm` when it exists and otherwise the
    directory that google-mlir's build sets up from Debian's packages. Any
    error diagnostic that serialization reports fails the pass.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"",
           "CUDA or ROCm toolkit directory">,
  ];
}

#endif // GOOGLE_CODEGEN_GPU_PASSES_TD
