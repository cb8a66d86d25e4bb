//===- Passes.td - code generation passes shared by targets -*- tablegen -*-===//
//
// Passes on linalg, memref, scf, OpenMP and the LLVM dialect: the codegen
// layer between the google dialect and a target. CPU schedules
// (lib/Codegen/CPU) and what every target needs (lib/Codegen/Common); the
// GPU passes are in Codegen/GPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_CODEGEN_PASSES_TD
#define GOOGLE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExportFunctionsPass : Pass<"google-export-functions", "::mlir::ModuleOp"> {
  let summary = "Give public functions a C interface and record their signature";
  let description = [{
    Sets `llvm.emit_c_interface` on every public `func.func` with a body, so
    that the LLVM lowering emits `_mlir_ciface_<name>` taking memref
    descriptors, and records its tensor signature as the
    `google.signature` attribute, which survives the lowering to the LLVM
    dialect:

    ```mlir
    func.func @mlp(%x: tensor<?x512xf32>) -> tensor<?x256xf32>
    => func.func @mlp(...) attributes {google.signature = (tensor<?x512xf32>) -> tensor<?x256xf32>, llvm.emit_c_interface}
    ```

    Private functions and declarations are left alone, except that a
    function named like a C library function the lowering may call (`exp`,
    `tanh`, `malloc`, ...) is renamed to `<name>.google`, so that it cannot
    capture those calls; a public one keeps its name in
    `google.export_name`, which the runtime manifest uses.

    A public function's tensor arguments are marked
    `bufferization.writable = false`: callers pass their inputs without a
    copy, so One-Shot Bufferize gives code that would update an input in
    place (a scatter, a loop's state) a copy of it to write into.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def ResultsToOutParamsPass
    : Pass<"google-results-to-out-params", "::mlir::ModuleOp"> {
  let summary = "Let callers provide the buffers of statically shaped results";
  let description = [{
    Runs after bufferization. Every exported function (one with a
    `google.signature`) whose results all have static shapes takes them as
    trailing out-parameters instead, so the caller can pass its own memory;
    the allocation that produced a result becomes a write into the
    out-parameter. Such functions are marked `google.results_out`:

    ```mlir
    func.func @f(%x: memref<4xf32>) -> memref<4xf32>
    => func.func @f(%x: memref<4xf32>, %out: memref<4xf32>) attributes {google.results_out}
    ```

    Functions with a dynamically shaped result keep returning all their
    results (the caller cannot know their size beforehand). Call sites in
    the module are updated. A buffer returned more than once (CSE merges
    equal results) is copied for each later result first, so that every
    result has a buffer of its own.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def EmitRuntimeInterfacePass
    : Pass<"google-emit-runtime-interface", "::mlir::ModuleOp"> {
  let summary = "Emit the packed entry points and manifest the runtime loads";
  let description = [{
    Runs on the LLVM dialect. For every function with a `google.signature`
    it adds `_google_packed_<name>(ptr %args)`, which loads each pointer of
    `%args` and calls `_mlir_ciface_<name>` with them, and it describes all
    of them in the `google_mlir_manifest` string constant:

    ```
    google-mlir-manifest 1
    device <cuda|rocm>
    cpu <feature>...
    func <name> <out|ret> <#args> <arg types> <#results> <result types>
    ```

    `out` marks results passed as out-parameters, `ret` results returned
    through the C interface's first pointer. The `device` line, for code
    whose tensors live on a GPU, comes from the `device` option, else from
    the targets of the module's `gpu.binary` ops (which must agree with it).
    The `cpu` line lists the `cpu-features` option: the CPU features the
    host code was compiled for, which the runtime checks before it runs
    any of it. A module that already has a manifest is left alone.

    The runtime hooks the module calls (`_mlir_memref_to_llvm_alloc`,
    `_mlir_memref_to_llvm_free`, `google_rt_check_failed`, ...) get weak
    definitions over malloc/free/puts+abort, marked
    `google.runtime_fallback`, so that the module also runs without the
    runtime (e.g. under mlir-runner); objects built for the runtime drop
    them. Fails on a function without a C interface or
    with an element type the runtime does not know.
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"",
           "Where the functions' tensors live: cpu, cuda or rocm (default: "
           "what the device binaries are for, else cpu)">,
    ListOption<"cpuFeatures", "cpu-features", "std::string",
               "CPU features the host code was compiled for (LLVM's names)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FuseElementwisePass : Pass<"google-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops into their consumers";
  let description = [{
    Upstream elementwise fusion (`linalg::populateElementwiseOpsFusionPatterns`,
    a producer fuses into its consumer when the consumer is its only user),
    with linalg's canonicalization and constant folding, but without
    `--linalg-fuse-elementwise-ops`'s propagation of reshapes through
    generics: that turns `abs(collapse(x : ?x?x3))` into a collapse of an
    expanded generic, which bufferizes to an `expand_shape` group with two
    dynamic extents that MLIR 22's `--expand-strided-metadata` crashes on
    (test/Upstream/expand-strided-metadata-two-dynamic.mlir).

    ```mlir
    %e = linalg.generic ... ins(%x) { math.exp }
    %r = linalg.generic ... ins(%e, %y) { arith.addf }
    => %r = linalg.generic ... ins(%x, %y) { math.exp; arith.addf }
    ```

    With `reductions` (the CPU's pipeline), a `linalg.reduce` whose input
    is such a producer's only result becomes a generic first, so that the
    producer fuses into the reduction too (a sum of exps, a max pooling
    gradient's first-position search): no tensor is written in between.

    With `reshapes` (the CPU's), an elementwise producer also fuses into
    an elementwise consumer that reads it through a static
    `tensor.collapse_shape` (a pooling gradient's 6-D windows collapsed to
    the image, then masked by the ReLU's derivative) or
    `tensor.expand_shape`: the consumer (or the producer) is expanded by
    upstream's reshape propagation, restricted to such pairs with static
    shapes, and the reshape moves out of the way.

    With `epilogues` (every target's pipeline), elementwise ops that read a
    contraction's result through a `tensor.expand_shape` (a rank-3
    activation times a weight is a matmul of its collapse, expanded) are
    collapsed to the contraction's dimensions and read it directly, their
    results expanded instead: the matmul schedules then fuse them (a bias
    and a GELU, a residual add) into the matmul as its epilogue.

    ```mlir
    %m = linalg.matmul ... -> tensor<2048x1024xf32>
    %e = tensor.expand_shape %m [[0, 1], [2]] : ... into tensor<16x128x1024xf32>
    %g = linalg.generic ins(%e, %bias : tensor<16x128x1024xf32>, tensor<1024xf32>) { gelu(x + b) }
    => %g2 = linalg.generic ins(%m, %bias : tensor<2048x1024xf32>, tensor<1024xf32>) { gelu(x + b) }
       %g = tensor.expand_shape %g2 [[0, 1], [2]]
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"reductions", "reductions", "bool", "false",
           "Fuse elementwise producers into reductions (as generics)">,
    Option<"reshapes", "reshapes", "bool", "false",
           "Fuse elementwise producers through static reshapes">,
    Option<"epilogues", "epilogues", "bool", "false",
           "Collapse elementwise ops on a contraction's expanded result "
           "so that they read it directly">,
  ];
  let statistics = [
    Statistic<"numEpilogues", "num-epilogues",
              "Elementwise ops collapsed to read a contraction's result">,
  ];
}

def ConvolutionToMatmulPass
    : Pass<"google-convolution-to-matmul", "::mlir::func::FuncOp"> {
  let summary = "Rewrite 2-D convolutions as an im2col copy and a matmul";
  let description = [{
    Each `linalg.conv_2d_nhwc_hwcf` on tensors with static windows,
    channels and output extents (a dynamic batch is fine) becomes a copy of
    its windows and a `linalg.matmul`, which the CPU's register-blocked
    schedule and the GPU's shared-memory kernels then take:

    ```mlir
    %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<?x8x8x16xf32>)
    => %p = linalg.generic {x[n, y + i, x + j, c]} -> tensor<?x8x8x3x3x8xf32>
       %m = linalg.matmul ins(collapse(%p) : tensor<?x72xf32>, collapse(%w) : tensor<72x16xf32>) outs(collapse(%acc))
       %y = tensor.expand_shape %m : tensor<?x16xf32> into tensor<?x8x8x16xf32>
    ```

    An accumulator that fills an empty tensor becomes a fill of a fresh
    matrix, and elementwise ops that read the result element by element
    (a bias and a ReLU) are collapsed to the matrix and read the matmul
    directly, expanded after them: the matmul schedules take a fill and an
    epilogue they see (into the register blocks or the kernel), not ones
    behind reshapes. Ops that broadcast along part of the collapsed
    dimensions stay on the expanded result.

    With `direct-min-width=W` (the CPU pipeline's choice), an f32
    convolution whose output rows have at least W positions (and whose
    input has more than one channel) is rewritten
    without the window copy: for each output row, kh*kw matmuls of a slice
    of the input (the row's positions, shifted by the window offset: a
    strided view, C contiguous floats per position) by the filter's
    (C x F) slice, accumulating into the row's (OW x F) slice:

    ```mlir
    scf.for %r = 0 to N*OH {            // google.parallel
      scf.for %i = 0 to kh { scf.for %j = 0 to kw {
        %a = tensor.extract_slice %x[n, y*s0 + i*d0, j*d1, 0] [1, 1, OW, C] [1, 1, s1, 1]
        %b = tensor.extract_slice %w[i, j, 0, 0] [1, 1, C, F]
        %acc = linalg.matmul ins(%a, %b) outs(%acc)    // OW x F
      } }
    }
    ```

    With `row-copy-min-run=R` (the CPU pipeline's choice), a window copy
    whose runs (kw*C contiguous input elements, undilated columns) are at
    least R long is built run by run: loops over the output rows, columns
    and window rows, each copying that run for every image as one slice (a
    strided copy of whole runs once bufferized), instead of a generic whose
    loops LLVM unrolls around a vectorized run. Convolutions with the batch
    as their channels (a filter's gradient) have runs of thousands.

    With `filter-gradients` (the CPU's pipeline), a filter's gradient as
    --google-differentiate writes it, a convolution of the input and the
    cotangent with their batch and channels swapped by transposes, becomes
    a matmul of the forward convolution's windows (the same im2col matrix,
    built once for both) read transposed, by the cotangent:

    ```mlir
    %t = linalg.transpose ins(%x) permutation = [3, 1, 2, 0]
    %u = linalg.transpose ins(%ct) permutation = [1, 2, 0, 3]
    %r = linalg.conv_2d_nhwc_hwcf ins(%t, %u) outs(zeros)
    %g = linalg.transpose ins(%r) permutation = [1, 2, 0, 3]
    => %g = expand(linalg.matmul (A stored K x M) ins(windows(%x) : tensor<NHWxKKC>, collapse(%ct) : tensor<NHWxF>))
    ```

    Grouped and depthwise convolutions (`conv_2d_nhwgc_gfhwc`) stay as they
    are.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"directMinWidth", "direct-min-width", "int64_t", "0",
           "Rewrite f32 convolutions whose output width is at least this "
           "as per-row matmuls on the input (0: always im2col)">,
    Option<"rowCopyMinRun", "row-copy-min-run", "int64_t", "0",
           "Copy the windows run by run where a run (kw*C elements) is at "
           "least this long (0: always one generic)">,
    Option<"filterGradients", "filter-gradients", "bool", "false",
           "Rewrite filter gradients (convolutions of transposed operands) "
           "as a matmul of the forward's windows, transposed">,
  ];
  let statistics = [
    Statistic<"numConverted", "num-converted",
              "Convolutions rewritten as im2col and a matmul">,
    Statistic<"numDirect", "num-direct",
              "Convolutions rewritten as per-row matmuls">,
    Statistic<"numEpilogues", "num-epilogues",
              "Elementwise ops on a convolution's result collapsed to its "
              "matmul's matrix">,
    Statistic<"numRunCopies", "num-run-copies",
              "Window copies built run by run">,
    Statistic<"numFilterGradients", "num-filter-gradients",
              "Filter gradients rewritten as one matmul of transposed windows">,
  ];
}

def TileAndVectorizePass
    : Pass<"google-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile matmuls into register blocks and row reductions into "
                "rows, and vectorize them";
  let description = [{
    The CPU schedule for `linalg.matmul` and `linalg.batch_matmul` on f32
    tensors, with their zero fill and an elementwise epilogue that only they
    feed (the bias and relu of `google.matmul_bias_relu`):

    1. tile the epilogue (or the matmul) into MR x NR register blocks, N
       outer, fusing the fill and the matmul into each block; tile the
       matmul's K by 1;
    2. peel the block loops, so that full blocks have static shapes and
       only the remainders (M or N not a multiple of the block) stay
       scalar, dynamic sizes included;
    3. vectorize the full blocks: the K step becomes a `vector.contract`
       whose MR x NR accumulator is hoisted out of the K loop, so that it
       lives in registers and the epilogue runs on it before one store.

    When M, K and N are large enough (or dynamic) that B's rows are far
    apart and every block column of B is read by several row blocks, the
    block column is first copied into a contiguous K x NR panel.

    The outer block loop (N, or the batch) of a matmul with more than one
    outer block and enough work (at least 4096 MR x NR x 1 steps when the
    shape is static) is marked `google.parallel`: its iterations write
    disjoint blocks, and `--google-parallelize-loops` spreads them over
    threads.

    NR is two vectors of `vector-bits` and MR fills the registers (8 x 32
    for 512 bits, 6 x 16 for 256); a static M below MR gives a block of all
    M rows and a wider NR.

    Reductions over a static innermost row of at most 1024 elements (f32 or
    f64, every operand read contiguously) become one vector reduction per
    row, reassociated as SPEC allows. Elementwise loops are left to LLVM's
    loop vectorizer, which does as well on them. Window copies (a
    convolution's im2col, a reversed slice: a copy through an affine read
    whose rows are contiguous runs of the input) copy a run per vector read
    and write, in loops LLVM may not unroll.

    ```mlir
    %f = linalg.fill ins(%zero) outs(%e : tensor<64x64xf32>)
    %m = linalg.matmul ins(%a, %b) outs(%f)
    => scf.for %j = %c0 to %c64 step %c32 {
         scf.for %i = %c0 to %c64 step %c8 {
           %acc = scf.for %k ... iter_args(%c = %zeros) -> vector<8x32xf32> {
             vector.contract ... %c
    ```

    Every linalg op it tiles first gets run-time checks that its operands'
    extents agree (tiling takes each loop's range from one operand). Other
    element types (f16 and bf16 are emulated in f32 later, integers keep
    their scalar loops) and ops are left alone.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"512",
           "Width of the target's vector registers in bits (128, 256, 512)">,
  ];
  let statistics = [
    Statistic<"numTiled", "num-tiled", "Matmuls tiled into register blocks">,
    Statistic<"numVectorized", "num-vectorized", "Linalg ops vectorized">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def ParallelizeLoopsPass
    : Pass<"google-parallelize-loops", "::mlir::ModuleOp"> {
  let summary = "Run the loops marked google.parallel on OpenMP threads";
  let description = [{
    Runs after bufferization and buffer deallocation, on the `scf.for` loops
    that `--google-tile-and-vectorize` marked `google.parallel` (the outer
    block loop of a large matmul, the rows of a chain of row ops, the chunks
    of a large elementwise op: their iterations write disjoint blocks).
    Each becomes an `omp.parallel` / `omp.wsloop` / `omp.loop_nest` nest:

    ```mlir
    scf.for %j = %c0 to %n step %c32 {
      %panel = memref.alloc(%k) : memref<?x32xf32>
      ...
      memref.dealloc %panel : memref<?x32xf32>
    } {google.parallel}
    => func.func private @f_parallel_body(%j, %buffer, %k, ...) {
         %thread = llvm.call @omp_get_thread_num() : () -> i32
         %panel = memref.view %buffer[%offset][%k] : ...
         ...
       }
       %threads = llvm.call @google_rt_num_threads() : () -> i32
       %buffer = memref.alloc(%bytes) : memref<?xi8>  // %threads slots
       scf.if %enough {
         omp.parallel num_threads(%threads : i32) {
           omp.wsloop {
             omp.loop_nest (%j) : index = (%c0) to (%n) step (%c32) {
               func.call @f_parallel_body(%j, %buffer, %k, ...)
       } else {
         scf.for %j = %c0 to %n step %c32 {
           func.call @f_parallel_body(%j, %buffer, %k, ...)
    ```

    - Threads must not allocate or fail: every buffer the body allocates
      (and frees in the same block) becomes one slot per thread of a
      buffer allocated in front of the loop (its largest size when the size
      is computed in the body), which the OpenMP thread number picks; a
      loop whose body still allocates, calls or checks something stays an
      `scf.for` (its buffers, hoisted, get one slot).
    - The thread count comes from the runtime (`GOOGLE_MLIR_NUM_THREADS`,
      default all cores). `%enough` keeps the loop on the calling thread,
      outside OpenMP, with one thread, fewer than 2 iterations or fewer than
      4096 innermost steps (estimated from the trip counts known in front of
      the loop): a parallel region OpenMP serializes (its `if` clause) still
      costs about a microsecond. The body is outlined into an internal
      function, never inlined, that both loops call: compiled once.
  }];
  let statistics = [
    Statistic<"numParallelized", "num-parallelized",
              "Loops turned into OpenMP loops">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

def CheckShapeAssumptionsPass
    : Pass<"google-check-shape-assumptions", "::mlir::ModuleOp"> {
  let summary = "Check at run time every shape that memref code assumes";
  let description = [{
    Runs after bufferization. Wherever the IR assumes a dynamic extent has a
    particular value, a `cf.assert` compares it first:

    - `memref.cast` that makes a dynamic dimension static;
    - `memref.expand_shape`: the source extent of each group equals the
      product of the output extents;
    - linalg ops: every operand extent indexed by a loop dimension equals
      that loop's range (taken from the first operand that defines it).

    ```mlir
    %c = memref.cast %x : memref<?xf32> to memref<4xf32>
    => %d = memref.dim %x, %c0
       cf.assert (%d == 4), "google.add: an extent is {0} at run time where {1} is assumed"
       %c = memref.cast %x : memref<?xf32> to memref<4xf32>
    ```

    The lowering checks dynamic extents where each google op is converted,
    but tensor-level rewrites (elementwise fusion, canonicalization) may
    move a refinement to another value, and the check on the original
    value then folds away; the refinement itself always survives as one of
    the ops above. The message names the google op from the op's location
    (`--convert-google-to-linalg` tags locations with the op name). Static
    extents are not checked: the verifiers compared them.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect"];
}

def DeferChecksPass : Pass<"google-defer-checks", "::mlir::func::FuncOp"> {
  let summary = "Make deferrable run-time checks as late as their results "
                "allow";
  let description = [{
    A check that reads a tensor on the host (a gather's count of indices out
    of range) makes a GPU call copy the count back and wait for the kernels
    before it, in the middle of the call. A `cf.assert` marked
    `google.deferrable_check` (its failure leaves the code after it
    memory-safe: kernels clamp the indices) moves down its block, with the
    pure ops that only it reads (the `tensor.extract` of the count, the
    comparison), to just before the first op that must not run after a
    failed check unseen:

    - another check (the first failure in program order is the one
      reported), a call, the block's terminator;
    - an op with regions other than a linalg op, `tensor.pad` or
      `tensor.generate` (a loop's trip count may come from the data);
    - any other `tensor.extract` (the host reads data that could steer it)
      or op with memory effects.

    Checks that meet at one such op keep their order.

    ```mlir
    %count = linalg.generic ... // out-of-range indices
    %n = tensor.extract %count[] : tensor<i64>
    %ok = arith.cmpi eq, %n, %c0 : i64
    cf.assert %ok, "..." {google.deferrable_check}
    %r = linalg.matmul ...
    return %r
    => %count = linalg.generic ...
       %r = linalg.matmul ...
       %n = tensor.extract %count[] ; %ok = ... ; cf.assert %ok, ...
       return %r
    ```
  }];
}

def LowerChecksToRuntimePass
    : Pass<"google-lower-checks-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn failed cf.assert checks into runtime errors";
  let description = [{
    Rewrites every `cf.assert %ok, "message"` into a branch that, when `%ok`
    is false, calls `google_rt_check_failed("message", actual, expected)`
    from libgoogle_runtime and does not return. When `%ok` is an
    `arith.cmpi eq` of two integers, they are passed as `actual` and
    `expected`, and the runtime writes them where the message says `{0}`
    and `{1}`; otherwise the placeholders become `?`:

    ```mlir
    %ok = arith.cmpi eq, %dim, %c4 : index
    cf.assert %ok, "google.add: dimension 0 of operand #0 is {0}, expected {1}"
    => cf.cond_br %ok, ^continue, ^failed
       ^failed: llvm.call @google_rt_check_failed(%message, %dim, %c4)
                llvm.unreachable
    ```

    Inside `google_rt_call` the runtime turns the failure into an error
    status of that call; elsewhere it prints the message and aborts, as
    `cf.assert` would.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def CheckBoundsPass : Pass<"google-check-bounds", "::mlir::func::FuncOp"> {
  let summary = "Check at run time that every memory access stays inside its "
                "buffer (a debugging aid: slow)";
  let description = [{
    Puts a `cf.assert` in front of every access: memref loads, stores,
    copies and atomics through upstream's runtime verification, subviews
    (every element inside the source; upstream's check of them crashes in
    MLIR 22), and vector loads and stores and vector transfers that must
    stay in bounds (every dimension `in_bounds`) over all the elements
    they touch; with a 1-D mask (masked loads and stores, masked
    transfers: a transposed tile's partial edge) over the lanes the mask
    sets. Transfers allowed past the end (`in_bounds = false`) and n-D
    masks are left alone, and so are reshapes and casts
    (their shapes were checked where they were made; upstream's check of
    an expand_shape divides by a group's extent, which may be 0):

    ```mlir
    %v = vector.load %m[%i] : memref<?xf32>, vector<16xf32>
    => %end = arith.addi %i, %c16
       %ok = (%i >= 0) and (%end <= dim(%m, 0))
       cf.assert %ok, "vector.load at loc(...): out-of-bounds access"
       %v = vector.load %m[%i] : memref<?xf32>, vector<16xf32>
    ```

    The pipeline's `check-bounds=true` runs it on the host code after
    `--google-lower-checks-to-runtime`, so that a failed check prints its
    message and aborts the process (a check inside an OpenMP region
    cannot end the call cleanly), and the differential tester runs that
    as one of its variants. The GPU emulation on the host
    (`--google-test-gpu-mapping-on-host`) checks every kernel with it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def HoistLoopInvariantsPass
    : Pass<"google-hoist-loop-invariants", "::mlir::func::FuncOp"> {
  let summary = "Move linalg ops on tensors that a loop's iterations all "
                "compute alike out of the loop";
  let description = [{
    Reverse-mode loops (a scan's or a `fori_loop`'s gradient) transpose the
    weights at every step: the backward of `h @ w` reads `w^T`, a kernel
    and a pass over `w` per iteration where one before the loop does.
    A linalg op on static tensors in the body of an `scf.for` or of an
    `scf.while`'s after region moves before the loop when:

    - every input is defined outside the loop;
    - every destination is defined outside the loop, or is an empty tensor
      made in the loop for it alone, or a fill of one with a value from
      outside (a reduction's, a matmul's start), which move along;
    - its payload is pure and reads no tensor (a gather could read out of
      range where the loop would not have run);
    - its results are only read in the loop (inputs of linalg ops, slices,
      reshapes read the same way, elements): never a destination, which
      bufferization would have to copy at every iteration, nor yielded.

    Ops keep moving until none does, so chains move, and out of nested
    loops. Fills alone stay where they are: their results are
    destinations.

    ```mlir
    scf.for %i = %c0 to %c64 step %c1 iter_args(%g = %g0) -> (tensor<32x128xf32>) {
      %e = tensor.empty() : tensor<128x128xf32>
      %wt = linalg.transpose ins(%w : tensor<128x128xf32>) outs(%e : ...) permutation = [1, 0]
      %d = linalg.matmul ins(%g, %wt : ...) outs(...)
      ...
    }
    =>
    %e = tensor.empty() : tensor<128x128xf32>
    %wt = linalg.transpose ins(%w : ...) outs(%e : ...) permutation = [1, 0]
    scf.for ... { %d = linalg.matmul ins(%g, %wt : ...) ... }
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "num-hoisted", "Linalg ops moved out of loops">,
  ];
}

def DuplicateSharedFillsPass
    : Pass<"google-duplicate-shared-fills", "::mlir::func::FuncOp"> {
  let summary = "Give each destination of a shared linalg.fill a fill of its "
                "own";
  let description = [{
    CSE makes one `linalg.fill` of an empty tensor the destination of every
    op that starts from the same constant (both matmuls of an attention
    whose scores and output have one shape start from zeros). One-Shot
    Bufferize then fills one buffer and copies it for the other ops. Here
    each destination gets a fill of its own (of its own `tensor.empty`),
    just before its op:

    ```mlir
    %z = linalg.fill ins(%zero) outs(%e)
    %s = linalg.batch_matmul ins(%q, %kt) outs(%z)
    %o = linalg.batch_matmul ins(%p, %v) outs(%z)
    =>
    %z1 = linalg.fill ins(%zero) outs(%e1)  // %e1 = tensor.empty
    %s = linalg.batch_matmul ins(%q, %kt) outs(%z1)
    %z2 = linalg.fill ins(%zero) outs(%e2)  // %e2 = tensor.empty
    %o = linalg.batch_matmul ins(%p, %v) outs(%z2)
    ```

    The GPU pipeline runs it before bufferization: a fill right before its
    contraction becomes the accumulators' starting value in the kernel,
    where a device copy was a kernel of its own.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def LoopLocalDestinationsPass
    : Pass<"google-loop-local-destinations", "::mlir::func::FuncOp"> {
  let summary = "Give the values a loop yields destinations of their own "
                "iteration: the state they replace, or a new empty tensor";
  let description = [{
    One-Shot Bufferize yields a loop's state without a copy only where the
    body computes the new state in the buffer of the old one. The
    conversion computes every value into a new `tensor.empty`, and CSE
    merges that with an equal one above the loop; then every iteration
    shares one buffer and copies it out (on a GPU, a device copy per
    iteration), and an `scf.while` copies its whole state in each
    iteration's condition.

    Here, for each tensor an `scf.for` or an `scf.while`'s after region
    yields, the destination chain is followed (through destination-style
    ops' inits, inner loops' inits and reshapes) to its root:

    - **The iteration argument it replaces**, where the root is an empty
      tensor of its type and every read of the iteration argument (or of a
      reshape or slice of it) comes before the chain's first writer, or is
      that writer reading it elementwise where it writes. The state is then
      updated in place: no allocation, no copy. For an `scf.while` the
      condition must pass the state on unchanged.

      ```mlir
      scf.for ... iter_args(%x = %x0) {
        %e = tensor.empty() : tensor<4xf32>
        %y = linalg.generic ins(%x) outs(%e) ...
        scf.yield %y
      }
      =>
      scf.for ... iter_args(%x = %x0) {
        %y = linalg.generic ins(%x) outs(%x) ...
        scf.yield %y
      }
      ```

    - **Otherwise, if the root is an empty tensor or a `linalg.fill` of one
      defined above the loop,** it is made again just before its user, in
      the loop: each iteration allocates (the deallocation pipeline frees
      the previous iteration's buffer) instead of copying.

    Replacing an empty tensor, whose contents are undefined, never changes
    a result; the conditions above only keep One-Shot Bufferize from
    copying.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numStateWrites", "num-state-writes",
              "Yielded values computed in their iteration argument">,
    Statistic<"numLocalDestinations", "num-local-destinations",
              "Destinations above a loop made again in it">,
  ];
}

def OrderConstantGlobalsPass
    : Pass<"google-order-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Give bufferization's constant globals an order and names "
                "that depend only on the program";
  let description = [{
    One-Shot Bufferize turns each tensor constant into a private
    `memref.global` named `__constant_<shape>x<type>` (`_0`, `_1`, ...
    after the first of a type), in the order it bufferizes the functions,
    which can change from run to run: the same program then compiled to
    different text (names swapped between constants, globals reordered).
    Here these globals are ordered by their first use in the module (then
    by their value) and named again in that order:

    ```mlir
    memref.global "private" constant @__constant_4xf32_0 ... dense<1.0>
    memref.global "private" constant @__constant_4xf32 ... dense<2.0>
    func.func @f() { memref.get_global @__constant_4xf32_0 ... }
    func.func @g() { memref.get_global @__constant_4xf32 ... }
    =>
    memref.global "private" constant @__constant_4xf32 ... dense<1.0>
    memref.global "private" constant @__constant_4xf32_0 ... dense<2.0>
    ```
  }];
}

def ApproximateMathPass : Pass<"google-approximate-math"> {
  let summary = "Math functions as polynomial approximations in arith ops";
  let description = [{
    Rewrites the `math` functions that MLIR approximates with polynomials
    (`exp`, `log`, `tanh`, `erf`, `sin`, `cos`, ...) into `arith` ops, so
    that kernels need no device math library:

    ```mlir
    %y = math.exp %x : f32
    => arith ops only (a range reduction and a polynomial)
    ```

    The extreme pipeline runs it on NVVM kernels when no CUDA libdevice is
    found (no CUDA toolkit: the module then ships as PTX), and on CPU code
    for f32 `tanh` and `erf` (`functions=tanh,erf`): LLVM has no vector
    tanh or erf and expanded each vectorized one into 16 calls (a 3000-op
    chain took seconds to compile).
    The approximations are within a few ulp of the correctly rounded value;
    `test/Codegen/GPU/approximate-math.test` checks them against NumPy with
    the differential tester's error bounds. Ops without an approximation
    (`sqrt`, `absf`, `ctlz`) are left alone: they have LLVM intrinsics.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The math functions to approximate, by name (tanh, exp, "
               "...); all that MLIR approximates when empty">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // GOOGLE_CODEGEN_PASSES_TD
