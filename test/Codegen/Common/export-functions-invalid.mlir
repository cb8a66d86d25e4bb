// RUN: google-opt %s -split-input-file -google-export-functions -verify-diagnostics

// expected-error @+1 {{a public function name cannot be empty or contain a NUL byte}}
func.func @"a\00b"(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// expected-error @+1 {{a public function name cannot be empty or contain a NUL byte}}
func.func @""(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
