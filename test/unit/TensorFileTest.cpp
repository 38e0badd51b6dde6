//===- TensorFileTest.cpp - tests for Support/TensorFile --------*- C++ -*-===//
//
// Round trips through .npy and .pb, files written by NumPy and by the ONNX
// test-data generator, and every error path, each checked by its message.
//
//===----------------------------------------------------------------------===//

#include "Support/TensorFile.h"
#include "TestScratch.h"

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

using namespace tgc;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

namespace fs = std::filesystem;

/// `name` in this file's scratch folder.
std::string scratch(const std::string &name) {
  return (tgc::test::scratchDir("tensorfile") / name).string();
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A tensor of `dtype` and `shape` with a recognizable byte pattern.
HostTensor patternTensor(DType dtype, std::vector<int64_t> shape,
                         std::string name = "t") {
  HostTensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(static_cast<size_t>(t.numElements()) * dtypeSize(dtype));
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = dtype == DType::Bool ? static_cast<uint8_t>(i % 3 == 0)
                                     : static_cast<uint8_t>(i * 37 + 11);
  return t;
}

/// An .npy file with the given version and header dict, padded the way numpy
/// pads it, followed by `payload`.
std::string npyFile(int major, const std::string &dict,
                    const std::string &payload) {
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t len = dict.size() + 1;
  len += 64 - (8 + lenBytes + len) % 64;
  std::string out =
      std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  for (size_t i = 0; i < lenBytes; ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  out += dict + std::string(len - dict.size() - 1, ' ') + "\n";
  return out + payload;
}

/// The error message of a Result or Status, or "" on success (for INFO).
template <typename R> std::string errorOf(const R &r) {
  return r.ok() ? std::string() : r.error();
}

float floatAt(const HostTensor &t, size_t i) {
  float f;
  std::memcpy(&f, t.data.data() + i * sizeof(float), sizeof(float));
  return f;
}

// `np.save` of np.array([[1,-2,3],[-4,5,-32768]], dtype=np.int16), numpy 1.24.
const std::string kNumpyInt16 =
    std::string("\x93NUMPY\x01\x00v\x00", 10) +
    "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }" +
    std::string(58, ' ') + "\n" +
    std::string("\x01\x00\xfe\xff\x03\x00\xfc\xff\x05\x00\x00\x80", 12);

} // namespace

TEST_CASE("dtype helpers", "[tensorfile]") {
  CHECK(dtypeSize(DType::Bool) == 1);
  CHECK(dtypeSize(DType::BFloat16) == 2);
  CHECK(dtypeSize(DType::UInt32) == 4);
  CHECK(dtypeSize(DType::Double) == 8);
  CHECK(std::string(dtypeName(DType::Float)) == "float32");
  CHECK(std::string(dtypeName(DType::Double)) == "float64");
  CHECK(std::string(dtypeName(DType::BFloat16)) == "bfloat16");
  CHECK(std::string(dtypeName(DType::UInt16)) == "uint16");
  CHECK(dtypeFromOnnx(onnx::TensorProto::FLOAT16) == DType::Float16);
  CHECK(dtypeFromOnnx(onnx::TensorProto::UINT64) == DType::UInt64);
  CHECK_FALSE(dtypeFromOnnx(onnx::TensorProto::STRING).has_value());
  CHECK_FALSE(dtypeFromOnnx(onnx::TensorProto::COMPLEX64).has_value());
  CHECK_FALSE(dtypeFromOnnx(0).has_value());
  CHECK(numElements({}) == 1);
  CHECK(numElements({2, 0, 3}) == 0);
  CHECK(numElements({3, 4, 5}) == 60);
  CHECK(shapeString({}) == "[]");
  CHECK(shapeString({3, 4, 5}) == "[3,4,5]");
}

TEST_CASE("round trip through .npy and .pb", "[tensorfile]") {
  struct Case {
    DType dtype;
    std::vector<int64_t> shape;
  };
  const std::vector<Case> cases = {
      {DType::Float, {2, 3}}, {DType::Float, {}},
      {DType::Double, {4}},   {DType::Float16, {3, 1}},
      {DType::Int8, {5}},     {DType::Int16, {2, 2}},
      {DType::Int32, {}},     {DType::Int64, {1, 2, 3}},
      {DType::UInt8, {0}},    {DType::UInt16, {2, 0, 2}},
      {DType::UInt32, {7}},   {DType::UInt64, {1, 1, 1, 1}},
      {DType::Bool, {3}},     {DType::Float, {1, 1, 28, 28}},
  };
  for (const char *ext : {".npy", ".pb"}) {
    for (const Case &c : cases) {
      DYNAMIC_SECTION(ext << " " << dtypeName(c.dtype) << " "
                          << shapeString(c.shape)) {
        HostTensor t = patternTensor(c.dtype, c.shape, "my_input");
        std::string path = scratch(std::string("rt") + ext);
        Status written = writeTensorFile(path, t);
        INFO(errorOf(written));
        REQUIRE(written);
        Result<HostTensor> back = readTensorFile(path);
        INFO(errorOf(back));
        REQUIRE(back);
        CHECK(back->dtype == t.dtype);
        CHECK(back->shape == t.shape);
        CHECK(back->data == t.data);
        CHECK(back->name == (std::string(ext) == ".pb" ? "my_input" : ""));
        CHECK_FALSE(fs::exists(path + ".tmp"));
      }
    }
  }

  SECTION("bfloat16 goes through .pb but has no .npy dtype") {
    HostTensor t = patternTensor(DType::BFloat16, {2, 2});
    REQUIRE(writeTensorFile(scratch("bf16.pb"), t));
    Result<HostTensor> back = readTensorFile(scratch("bf16.pb"));
    REQUIRE(back);
    CHECK(back->dtype == DType::BFloat16);
    CHECK(back->data == t.data);
    Status npy = writeTensorFile(scratch("bf16.npy"), t);
    REQUIRE_FALSE(npy);
    CHECK_THAT(npy.error(),
               Contains("bf16.npy") && Contains("bfloat16 cannot be stored"));
    CHECK_FALSE(fs::exists(scratch("bf16.npy")));
  }

  SECTION("extensions are case-insensitive") {
    HostTensor t = patternTensor(DType::Int32, {2});
    REQUIRE(writeTensorFile(scratch("UPPER.NPY"), t));
    CHECK(readTensorFile(scratch("UPPER.NPY")));
  }
}

TEST_CASE(".npy files as numpy writes them", "[tensorfile]") {
  SECTION("version 1.0, int16, read") {
    std::string path = scratch("numpy_int16.npy");
    writeBytes(path, kNumpyInt16);
    Result<HostTensor> t = readTensorFile(path);
    INFO(errorOf(t));
    REQUIRE(t);
    CHECK(t->dtype == DType::Int16);
    CHECK(t->shape == std::vector<int64_t>{2, 3});
    std::vector<int16_t> values(6);
    REQUIRE(t->data.size() == 12);
    std::memcpy(values.data(), t->data.data(), 12);
    CHECK(values == std::vector<int16_t>{1, -2, 3, -4, 5, -32768});
  }

  SECTION("writing gives numpy's bytes exactly") {
    std::string path = scratch("mine_int16.npy");
    HostTensor t;
    t.dtype = DType::Int16;
    t.shape = {2, 3};
    t.data.assign(kNumpyInt16.end() - 12, kNumpyInt16.end());
    REQUIRE(writeTensorFile(path, t));
    CHECK(readBytes(path) == kNumpyInt16);
  }

  SECTION("version 2.0 and 3.0 headers") {
    std::string payload("\x00\x00\x00\x00\x00\x00\xf8\x3f", 8);
    std::string path = scratch("v2.npy");
    writeBytes(path, npyFile(2,
                             "{'descr': '<f8', 'fortran_order': False, "
                             "'shape': (1,), }",
                             payload));
    Result<HostTensor> t = readTensorFile(path);
    REQUIRE(t);
    CHECK(t->dtype == DType::Double);
    CHECK(t->shape == std::vector<int64_t>{1});
    double d;
    std::memcpy(&d, t->data.data(), 8);
    CHECK(d == 1.5);

    path = scratch("v3.npy");
    writeBytes(path, npyFile(3,
                             "{'descr': '|b1', 'fortran_order': False, "
                             "'shape': (3,), }",
                             std::string("\x01\x00\x01", 3)));
    t = readTensorFile(path);
    REQUIRE(t);
    CHECK(t->dtype == DType::Bool);
    CHECK(t->data == std::vector<uint8_t>{1, 0, 1});
  }

  SECTION("0-d scalar, double quotes, Python 2 long dims") {
    std::string path = scratch("scalar.npy");
    writeBytes(path, npyFile(1,
                             "{\"descr\": \"|u1\", \"shape\": (), "
                             "\"fortran_order\": False}",
                             "\x07"));
    Result<HostTensor> t = readTensorFile(path);
    REQUIRE(t);
    CHECK(t->shape.empty());
    CHECK(t->data == std::vector<uint8_t>{7});

    writeBytes(path, npyFile(1,
                             "{'descr': '<i4', 'fortran_order': False, "
                             "'shape': (1L, 2L), }",
                             std::string(8, '\0')));
    t = readTensorFile(path);
    REQUIRE(t);
    CHECK(t->shape == std::vector<int64_t>{1, 2});
  }
}

TEST_CASE("ONNX backend test data", "[tensorfile]") {
  // test_add's first input: np.random.randn(3, 4, 5) as float32, values
  // printed with /usr/bin/python3 and onnx.numpy_helper.to_array.
  std::string path = std::string(TGC_ONNX_TEST_DATA_DIR) +
                     "/node/test_add/test_data_set_0/input_0.pb";
  Result<HostTensor> t = readTensorFile(path);
  INFO(errorOf(t));
  REQUIRE(t);
  CHECK(t->name == "x");
  CHECK(t->dtype == DType::Float);
  CHECK(t->shape == std::vector<int64_t>{3, 4, 5});
  REQUIRE(t->data.size() == 60 * sizeof(float));
  CHECK(floatAt(*t, 0) == 1.7640524f);
  CHECK(floatAt(*t, 1) == 0.4001572f);
  CHECK(floatAt(*t, 1 * 20 + 2 * 5 + 3) == -1.9807965f); // x[1,2,3]
  CHECK(floatAt(*t, 59) == -0.36274117f);
}

TEST_CASE(".pb typed data fields", "[tensorfile]") {
  auto roundTrip = [](const onnx::TensorProto &proto) {
    std::string path = scratch("typed.pb");
    writeBytes(path, proto.SerializeAsString());
    return readTensorFile(path);
  };
  onnx::TensorProto proto;
  proto.set_name("v");
  proto.add_dims(2);

  SECTION("float_data") {
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_float_data(1.5f);
    proto.add_float_data(-2.0f);
    Result<HostTensor> t = roundTrip(proto);
    REQUIRE(t);
    CHECK(floatAt(*t, 0) == 1.5f);
    CHECK(floatAt(*t, 1) == -2.0f);
  }
  SECTION("int32_data holds int8, float16 bits and bool") {
    proto.set_data_type(onnx::TensorProto::INT8);
    proto.add_int32_data(-1);
    proto.add_int32_data(127);
    Result<HostTensor> t = roundTrip(proto);
    REQUIRE(t);
    CHECK(t->data == std::vector<uint8_t>{0xff, 0x7f});

    proto.set_data_type(onnx::TensorProto::FLOAT16);
    proto.set_int32_data(0, 0x3c00); // 1.0
    proto.set_int32_data(1, 0xc000); // -2.0
    t = roundTrip(proto);
    REQUIRE(t);
    CHECK(t->data == std::vector<uint8_t>{0x00, 0x3c, 0x00, 0xc0});

    proto.set_data_type(onnx::TensorProto::BOOL);
    proto.set_int32_data(0, 1);
    proto.set_int32_data(1, 0);
    t = roundTrip(proto);
    REQUIRE(t);
    CHECK(t->data == std::vector<uint8_t>{1, 0});
  }
  SECTION("int64_data, double_data, uint64_data") {
    proto.set_data_type(onnx::TensorProto::INT64);
    proto.add_int64_data(-2);
    proto.add_int64_data(int64_t(1) << 40);
    Result<HostTensor> t = roundTrip(proto);
    REQUIRE(t);
    int64_t i64[2];
    std::memcpy(i64, t->data.data(), 16);
    CHECK(i64[0] == -2);
    CHECK(i64[1] == int64_t(1) << 40);

    proto.clear_int64_data();
    proto.set_data_type(onnx::TensorProto::DOUBLE);
    proto.add_double_data(0.25);
    proto.add_double_data(-8.0);
    t = roundTrip(proto);
    REQUIRE(t);
    double f64[2];
    std::memcpy(f64, t->data.data(), 16);
    CHECK(f64[0] == 0.25);
    CHECK(f64[1] == -8.0);

    proto.clear_double_data();
    proto.set_data_type(onnx::TensorProto::UINT32);
    proto.add_uint64_data(0xdeadbeef);
    proto.add_uint64_data(7);
    t = roundTrip(proto);
    REQUIRE(t);
    uint32_t u32[2];
    std::memcpy(u32, t->data.data(), 8);
    CHECK(u32[0] == 0xdeadbeefu);
    CHECK(u32[1] == 7u);
  }
  SECTION("wrong element count") {
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_float_data(1.0f);
    Result<HostTensor> t = roundTrip(proto);
    REQUIRE_FALSE(t);
    CHECK_THAT(t.error(), Contains("typed.pb") && Contains("size mismatch") &&
                              Contains("needs 2 elements, float_data has 1"));
  }
}

TEST_CASE("tensor file errors", "[tensorfile]") {
  HostTensor t = patternTensor(DType::Float, {4, 4});
  std::string goodNpy = *serializeNpy(t, "t");
  std::string goodPb = *serializeTensorProto(t, "t");

  SECTION("truncated npy data") {
    std::string path = scratch("trunc_data.npy");
    writeBytes(path, goodNpy.substr(0, goodNpy.size() - 5));
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), StartsWith(path + ": truncated data") &&
                              Contains("needs 64 data bytes, file has 59"));
  }
  SECTION("truncated npy header") {
    std::string path = scratch("trunc_header.npy");
    writeBytes(path, goodNpy.substr(0, 30));
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), StartsWith(path + ": truncated file: header needs "
                                            "128 bytes, file has 30"));
  }
  SECTION("every prefix of an npy file is an error") {
    for (size_t n = 0; n < goodNpy.size(); ++n) {
      Result<HostTensor> r = parseNpy(goodNpy.substr(0, n), "prefix.npy");
      INFO("prefix of " << n << " bytes");
      REQUIRE_FALSE(r);
      CHECK_THAT(r.error(), StartsWith("prefix.npy: "));
    }
  }
  SECTION("trailing bytes after npy data") {
    std::string path = scratch("trailing.npy");
    writeBytes(path, goodNpy + "xx");
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Contains("size mismatch") &&
                              Contains("needs 64 data bytes, file has 66"));
  }
  SECTION("bad magic") {
    std::string path = scratch("bad_magic.npy");
    writeBytes(path, "PK\x03\x04 this is a zip, not an npy file");
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK(r.error() == path + ": bad magic: not a NumPy .npy file");
  }
  SECTION("wrong extension") {
    std::string path = scratch("tensor.txt");
    writeBytes(path, goodNpy);
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK(r.error() == path + ": unknown tensor file extension '.txt' "
                              "(expected .npy or .pb)");
    Status w = writeTensorFile(scratch("model.onnx"), t);
    REQUIRE_FALSE(w);
    CHECK_THAT(w.error(), Contains("model.onnx") && Contains("'.onnx'"));
    r = readTensorFile(scratch("no_extension"));
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Contains("extension ''"));
  }
  SECTION("missing file") {
    std::string path = scratch("does_not_exist.pb");
    Result<HostTensor> r = readTensorFile(path);
    REQUIRE_FALSE(r);
    CHECK(r.error() == path + ": cannot open file: No such file or directory");
  }
  SECTION("unwritable path") {
    std::string path = scratch("no/such/dir/out.npy");
    Status w = writeTensorFile(path, t);
    REQUIRE_FALSE(w);
    CHECK_THAT(w.error(), StartsWith(path + ": cannot create file: No such "
                                            "file or directory"));
  }
  SECTION("inconsistent tensor is not written") {
    HostTensor bad = t;
    bad.data.pop_back();
    std::string path = scratch("inconsistent.pb");
    Status w = writeTensorFile(path, bad);
    REQUIRE_FALSE(w);
    CHECK_THAT(w.error(), Contains("has 63 data bytes, but shape [4,4] of "
                                   "float32 needs 64"));
    CHECK_FALSE(fs::exists(path));
  }
  SECTION("unsupported npy headers") {
    struct BadHeader {
      std::string dict, expected;
    };
    const std::vector<BadHeader> cases = {
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
         "fortran_order=True (column-major) arrays are not supported"},
        {"{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
         "big-endian dtype '>i4' is not supported"},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
         "unsupported dtype '<c8'"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
         "unsupported dtype: structured"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
         "bad header: 'shape' is not a tuple of non-negative integers"},
        {"{'descr': '<f4', 'fortran_order': False}",
         "bad header: 'shape' missing"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, "
         "99999999999, 99999999999), }",
         "shape [99999999999,99999999999,99999999999] is too large"},
        {"not a dict", "bad header: header is not a Python dict"},
    };
    for (const BadHeader &c : cases) {
      Result<HostTensor> r = parseNpy(npyFile(1, c.dict, ""), "h.npy");
      INFO(c.dict);
      REQUIRE_FALSE(r);
      CHECK_THAT(r.error(), StartsWith("h.npy: ") && Contains(c.expected));
    }
    std::string v9 = goodNpy;
    v9[6] = 9;
    Result<HostTensor> r = parseNpy(v9, "v9.npy");
    REQUIRE_FALSE(r);
    CHECK(r.error() == "v9.npy: unsupported .npy format version 9.0");
  }
  SECTION("bad .pb files") {
    Result<HostTensor> r = parseTensorProto("\xff\xff\xff\xff", "g.pb");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), StartsWith("g.pb: not a valid ONNX TensorProto"));

    r = parseTensorProto(goodPb.substr(0, goodPb.size() - 3), "cut.pb");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), StartsWith("cut.pb: "));

    onnx::TensorProto proto;
    proto.set_name("s");
    proto.set_data_type(onnx::TensorProto::STRING);
    proto.add_string_data("hello");
    r = parseTensorProto(proto.SerializeAsString(), "str.pb");
    REQUIRE_FALSE(r);
    CHECK(r.error() == "str.pb: unsupported data type 8 (STRING)");

    proto.Clear();
    proto.set_name("w");
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_dims(3);
    proto.set_raw_data(std::string(8, '\0'));
    r = parseTensorProto(proto.SerializeAsString(), "short.pb");
    REQUIRE_FALSE(r);
    CHECK(r.error() == "short.pb: size mismatch: shape [3] of float32 needs "
                       "12 bytes, raw_data has 8");

    proto.clear_raw_data();
    proto.set_data_location(onnx::TensorProto::EXTERNAL);
    auto *entry = proto.add_external_data();
    entry->set_key("location");
    entry->set_value("weights.bin");
    r = parseTensorProto(proto.SerializeAsString(), "ext.pb");
    REQUIRE_FALSE(r);
    CHECK(r.error() ==
          "ext.pb: tensor 'w' uses external data, which is not supported");

    proto.Clear();
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_dims(2);
    proto.add_dims(-3);
    r = parseTensorProto(proto.SerializeAsString(), "neg.pb");
    REQUIRE_FALSE(r);
    CHECK(r.error() == "neg.pb: negative dimension in shape [2,-3]");
  }
  SECTION("garbage never crashes") {
    std::mt19937 rng(1234);
    auto mutate = [&](std::string s) {
      if (s.empty())
        return s;
      for (int k = 0; k < 4; ++k)
        s[rng() % s.size()] = static_cast<char>(rng());
      return s.substr(0, rng() % (s.size() + 1));
    };
    for (int i = 0; i < 2000; ++i) {
      std::string junk(rng() % 200, '\0');
      for (char &c : junk)
        c = static_cast<char>(rng());
      for (const std::string &bytes : {junk, mutate(goodNpy), mutate(goodPb)}) {
        for (auto parse : {parseNpy, parseTensorProto}) {
          Result<HostTensor> r = parse(bytes, "junk");
          if (r)
            CHECK(r->isConsistent());
          else
            CHECK_THAT(r.error(), StartsWith("junk: "));
        }
      }
    }
  }
}
