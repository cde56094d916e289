// Random inputs for the SkelCL tests: floats in [-1, 1) and ints in [-100, 100], the same for the
// same seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

inline std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline std::vector<int32_t> randomInts(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> dist(-100, 100);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}
