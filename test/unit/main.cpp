//===- main.cpp - Catch2 main for tgc-unit-tests ----------------*- C++ -*-===//
//
// The one translation unit that defines Catch2's main(); every other unit
// test file only includes <catch2/catch.hpp>.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
