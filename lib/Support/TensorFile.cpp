//===- TensorFile.cpp - .npy and .pb tensor files ---------------*- C++ -*-===//
//
// The .npy reader is written from the format description in NumPy's
// numpy/lib/format.py docstring: magic "\x93NUMPY", a version byte pair, a
// little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), then a Python
// dict literal with 'descr', 'fortran_order' and 'shape', padded with spaces
// and ended by '\n', then the raw array data.
//
// Everything below may throw (std::bad_alloc at worst); the public functions
// catch at the boundary and turn any exception into an Error.
//
//===----------------------------------------------------------------------===//

#include "Support/TensorFile.h"

#include <onnx/onnx_pb.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>

namespace tgc {

//===----------------------------------------------------------------------===//
// DType helpers
//===----------------------------------------------------------------------===//

std::optional<DType> dtypeFromOnnx(int32_t onnxType) {
  switch (static_cast<DType>(onnxType)) {
  case DType::Float:
  case DType::UInt8:
  case DType::Int8:
  case DType::UInt16:
  case DType::Int16:
  case DType::Int32:
  case DType::Int64:
  case DType::Bool:
  case DType::Float16:
  case DType::Double:
  case DType::UInt32:
  case DType::UInt64:
  case DType::BFloat16:
    return static_cast<DType>(onnxType);
  }
  return std::nullopt;
}

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::UInt8:
  case DType::Int8:
  case DType::Bool:
    return 1;
  case DType::UInt16:
  case DType::Int16:
  case DType::Float16:
  case DType::BFloat16:
    return 2;
  case DType::Float:
  case DType::Int32:
  case DType::UInt32:
    return 4;
  case DType::Int64:
  case DType::Double:
  case DType::UInt64:
    return 8;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Float:
    return "float32";
  case DType::UInt8:
    return "uint8";
  case DType::Int8:
    return "int8";
  case DType::UInt16:
    return "uint16";
  case DType::Int16:
    return "int16";
  case DType::Int32:
    return "int32";
  case DType::Int64:
    return "int64";
  case DType::Bool:
    return "bool";
  case DType::Float16:
    return "float16";
  case DType::Double:
    return "float64";
  case DType::UInt32:
    return "uint32";
  case DType::UInt64:
    return "uint64";
  case DType::BFloat16:
    return "bfloat16";
  }
  return "unknown";
}

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

bool HostTensor::isConsistent() const {
  for (int64_t d : shape)
    if (d < 0)
      return false;
  return static_cast<uint64_t>(data.size()) ==
         static_cast<uint64_t>(numElements()) * dtypeSize(dtype);
}

namespace {

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

Error makeError(const std::string &what, const std::string &problem) {
  return Error{what + ": " + problem};
}

/// Number of data bytes for `shape` of `dtype`, or an error if a dimension is
/// negative or the size does not fit in 63 bits (garbage headers).
Result<uint64_t> checkedByteSize(const std::vector<int64_t> &shape, DType dtype,
                                 const std::string &what) {
  const uint64_t limit = std::numeric_limits<int64_t>::max();
  uint64_t bytes = dtypeSize(dtype);
  for (int64_t d : shape) {
    if (d < 0)
      return makeError(what,
                       "negative dimension in shape " + shapeString(shape));
    if (d != 0 && bytes > limit / static_cast<uint64_t>(d))
      return makeError(what, "shape " + shapeString(shape) + " is too large");
    bytes *= static_cast<uint64_t>(d);
  }
  return bytes;
}

/// Stores the low `size` bytes of `bits` at `dst`, least significant first.
void storeLE(uint8_t *dst, uint64_t bits, size_t size) {
  for (size_t i = 0; i < size; ++i)
    dst[i] = static_cast<uint8_t>(bits >> (8 * i));
}

uint64_t loadLE(const uint8_t *src, size_t size) {
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i)
    bits |= static_cast<uint64_t>(src[i]) << (8 * i);
  return bits;
}

std::string lowercaseExtension(const std::string &path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  std::string ext = path.substr(dot);
  for (char &c : ext)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

Result<std::string> readWholeFile(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return makeError(path,
                     std::string("cannot open file: ") + std::strerror(errno));
  std::string bytes;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0)
    bytes.append(buffer, n);
  bool failed = std::ferror(f);
  int savedErrno = errno;
  std::fclose(f);
  if (failed)
    return makeError(path, std::string("cannot read file: ") +
                               std::strerror(savedErrno));
  return bytes;
}

/// Writes `bytes` to `path` through a temporary file in the same folder, so
/// that readers never see a half-written file.
Status writeWholeFile(const std::string &path, const std::string &bytes) {
  std::string tmp = path + ".tmp";
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    return makeError(path, std::string("cannot create file: ") +
                               std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int savedErrno = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    savedErrno = errno;
    ok = false;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    return makeError(path, std::string("cannot write file: ") +
                               std::strerror(savedErrno));
  }
  return Status::success();
}

/// Runs `body`, turning any exception into an Error about `what`.
template <typename R, typename F> R guarded(const std::string &what, F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return makeError(what, "out of memory");
  } catch (const std::exception &e) {
    return makeError(what, std::string("internal error: ") + e.what());
  } catch (...) {
    return makeError(what, "internal error");
  }
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

const char kNpyMagic[] = "\x93NUMPY";
const size_t kNpyMagicLen = 6;

struct NpyDescr {
  const char *descr; // as numpy writes it
  DType dtype;
};

const NpyDescr kNpyDescrs[] = {
    {"<f4", DType::Float},  {"<f8", DType::Double}, {"<f2", DType::Float16},
    {"|i1", DType::Int8},   {"<i2", DType::Int16},  {"<i4", DType::Int32},
    {"<i8", DType::Int64},  {"|u1", DType::UInt8},  {"<u2", DType::UInt16},
    {"<u4", DType::UInt32}, {"<u8", DType::UInt64}, {"|b1", DType::Bool},
};

/// One value of the header dict: a string, a bool or a tuple of ints.
struct PyValue {
  enum Kind { String, Bool, Tuple } kind = String;
  std::string str;
  bool boolean = false;
  std::vector<int64_t> ints;
};

/// Parser for the Python dict literal in an .npy header. It accepts exactly
/// what numpy writes (and Python 2's `3L` integers), nothing more.
class NpyHeaderParser {
public:
  explicit NpyHeaderParser(const std::string &text) : text(text) {}

  /// Parses the dict into key/value pairs; on failure returns a message.
  std::optional<std::string>
  parse(std::vector<std::pair<std::string, PyValue>> &entries) {
    skipSpace();
    if (!consume('{'))
      return "header is not a Python dict";
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return "header dict key is not a string";
      skipSpace();
      if (!consume(':'))
        return "expected ':' after '" + key + "' in header";
      skipSpace();
      PyValue value;
      if (auto err = parseValue(key, value))
        return err;
      entries.emplace_back(key, std::move(value));
      skipSpace();
      if (consume('}'))
        break;
      if (!consume(','))
        return "expected ',' or '}' after '" + key + "' in header";
    }
    skipSpace();
    if (pos != text.size())
      return "unexpected text after the header dict";
    return std::nullopt;
  }

private:
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeWord(const char *word) {
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    pos += n;
    return true;
  }
  bool parseString(std::string &out) {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      return false;
    out = text.substr(pos, end - pos);
    if (out.find('\\') != std::string::npos)
      return false;
    pos = end + 1;
    return true;
  }
  bool parseInt(int64_t &out) {
    size_t start = pos;
    uint64_t v = 0;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos]))) {
      v = v * 10 + static_cast<uint64_t>(text[pos] - '0');
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return false;
      ++pos;
    }
    if (pos == start)
      return false;
    consume('L');
    out = static_cast<int64_t>(v);
    return true;
  }
  std::optional<std::string> parseValue(const std::string &key,
                                        PyValue &value) {
    if (pos < text.size() && (text[pos] == '\'' || text[pos] == '"')) {
      value.kind = PyValue::String;
      if (!parseString(value.str))
        return "bad string value for '" + key + "' in header";
      return std::nullopt;
    }
    if (consumeWord("True")) {
      value.kind = PyValue::Bool;
      value.boolean = true;
      return std::nullopt;
    }
    if (consumeWord("False")) {
      value.kind = PyValue::Bool;
      value.boolean = false;
      return std::nullopt;
    }
    if (consume('(')) {
      value.kind = PyValue::Tuple;
      while (true) {
        skipSpace();
        if (consume(')'))
          return std::nullopt;
        int64_t dim;
        if (!parseInt(dim))
          return "'" + key + "' is not a tuple of non-negative integers";
        value.ints.push_back(dim);
        skipSpace();
        if (consume(')'))
          return std::nullopt;
        if (!consume(','))
          return "expected ',' or ')' in '" + key + "' tuple";
      }
    }
    if (key == "descr")
      return "unsupported dtype: structured and record dtypes are not "
             "supported";
    return "unsupported value for '" + key + "' in header";
  }

  const std::string &text;
  size_t pos = 0;
};

Result<DType> npyDescrToDType(const std::string &descr,
                              const std::string &what) {
  for (const NpyDescr &d : kNpyDescrs) {
    if (descr == d.descr)
      return d.dtype;
    // numpy writes '|' for one-byte types but '<' means the same thing.
    if (d.descr[0] == '|' && descr.size() == 3 && descr[0] == '<' &&
        descr.compare(1, 2, d.descr + 1) == 0)
      return d.dtype;
  }
  if (!descr.empty() && descr[0] == '>')
    return makeError(what, "big-endian dtype '" + descr +
                               "' is not supported; save the array as "
                               "little-endian");
  return makeError(what, "unsupported dtype '" + descr + "'");
}

Result<HostTensor> parseNpyImpl(const std::string &bytes,
                                const std::string &what) {
  if (bytes.size() < kNpyMagicLen ||
      bytes.compare(0, kNpyMagicLen, kNpyMagic, kNpyMagicLen) != 0)
    return makeError(what, "bad magic: not a NumPy .npy file");
  if (bytes.size() < kNpyMagicLen + 2)
    return makeError(what, "truncated file: no format version");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3)
    return makeError(what, "unsupported .npy format version " +
                               std::to_string(major) + "." +
                               std::to_string(minor));
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t prefix = kNpyMagicLen + 2 + lenBytes;
  if (bytes.size() < prefix)
    return makeError(what, "truncated file: no header length");
  uint64_t headerLen =
      loadLE(reinterpret_cast<const uint8_t *>(bytes.data()) + 8, lenBytes);
  if (bytes.size() - prefix < headerLen)
    return makeError(what, "truncated file: header needs " +
                               std::to_string(prefix + headerLen) +
                               " bytes, file has " +
                               std::to_string(bytes.size()));
  std::string header = bytes.substr(prefix, headerLen);

  std::vector<std::pair<std::string, PyValue>> entries;
  if (auto err = NpyHeaderParser(header).parse(entries))
    return makeError(what, "bad header: " + *err);
  const PyValue *descr = nullptr, *fortran = nullptr, *shape = nullptr;
  for (auto &[key, value] : entries) {
    if (key == "descr")
      descr = &value;
    else if (key == "fortran_order")
      fortran = &value;
    else if (key == "shape")
      shape = &value;
    else
      return makeError(what, "bad header: unexpected key '" + key + "'");
  }
  if (!descr || descr->kind != PyValue::String)
    return makeError(what, "bad header: 'descr' missing or not a string");
  if (!fortran || fortran->kind != PyValue::Bool)
    return makeError(what, "bad header: 'fortran_order' missing or not a bool");
  if (!shape || shape->kind != PyValue::Tuple)
    return makeError(what, "bad header: 'shape' missing or not a tuple");

  Result<DType> dtype = npyDescrToDType(descr->str, what);
  if (!dtype)
    return Error{dtype.error()};
  if (fortran->boolean)
    return makeError(what, "fortran_order=True (column-major) arrays are not "
                           "supported; save a C-order array");

  HostTensor tensor;
  tensor.dtype = *dtype;
  tensor.shape = shape->ints;
  Result<uint64_t> needed = checkedByteSize(tensor.shape, tensor.dtype, what);
  if (!needed)
    return Error{needed.error()};
  uint64_t have = bytes.size() - prefix - headerLen;
  if (have != *needed)
    return makeError(
        what, std::string(have < *needed ? "truncated data" : "size mismatch") +
                  ": shape " + shapeString(tensor.shape) + " of " +
                  dtypeName(tensor.dtype) + " needs " +
                  std::to_string(*needed) + " data bytes, file has " +
                  std::to_string(have));
  tensor.data.assign(bytes.begin() +
                         static_cast<std::ptrdiff_t>(prefix + headerLen),
                     bytes.end());
  return tensor;
}

Result<std::string> serializeNpyImpl(const HostTensor &tensor,
                                     const std::string &what) {
  const char *descr = nullptr;
  for (const NpyDescr &d : kNpyDescrs)
    if (d.dtype == tensor.dtype)
      descr = d.descr;
  if (!descr)
    return makeError(what, std::string("dtype ") + dtypeName(tensor.dtype) +
                               " cannot be stored in a .npy file");

  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  shape += tensor.shape.size() == 1 ? ",)" : ")";
  std::string dict = std::string("{'descr': '") + descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";

  // Same layout as numpy's writer: pad with spaces so that the data starts at
  // a multiple of 64 bytes, then '\n'. Version 2.0 only when the header does
  // not fit in 1.0's 16-bit length.
  const size_t align = 64;
  size_t lenBytes = 2;
  size_t padded = dict.size() + 1;
  padded += align - (kNpyMagicLen + 2 + lenBytes + padded) % align;
  if (padded > 0xffff) {
    lenBytes = 4;
    padded = dict.size() + 1;
    padded += align - (kNpyMagicLen + 2 + lenBytes + padded) % align;
  }
  std::string out(kNpyMagic, kNpyMagicLen);
  out += static_cast<char>(lenBytes == 2 ? 1 : 2);
  out += '\0';
  uint8_t len[4];
  storeLE(len, padded, lenBytes);
  out.append(reinterpret_cast<const char *>(len), lenBytes);
  out += dict;
  out.append(padded - dict.size() - 1, ' ');
  out += '\n';
  out.append(reinterpret_cast<const char *>(tensor.data.data()),
             tensor.data.size());
  return out;
}

//===----------------------------------------------------------------------===//
// .pb (onnx::TensorProto)
//===----------------------------------------------------------------------===//

/// Copies the values of one typed repeated field into `out`, each stored as
/// the low `size` bytes of its little-endian bit pattern.
template <typename Field, typename ToBits>
void copyTypedField(const Field &field, size_t size, std::vector<uint8_t> &out,
                    ToBits toBits) {
  out.resize(static_cast<size_t>(field.size()) * size);
  for (int i = 0; i < field.size(); ++i)
    storeLE(out.data() + static_cast<size_t>(i) * size, toBits(field.Get(i)),
            size);
}

uint64_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

uint64_t doubleBits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return bits;
}

Result<HostTensor> parseTensorProtoImpl(const std::string &bytes,
                                        const std::string &what) {
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes))
    return makeError(what, "not a valid ONNX TensorProto (protobuf parse "
                           "failed)");
  if (proto.data_location() == onnx::TensorProto::EXTERNAL ||
      proto.external_data_size() > 0)
    return makeError(what, "tensor '" + proto.name() +
                               "' uses external data, which is not "
                               "supported");
  if (proto.has_segment())
    return makeError(what, "tensor '" + proto.name() +
                               "' is a segment, which is not supported");
  std::optional<DType> dtype = dtypeFromOnnx(proto.data_type());
  if (!dtype) {
    std::string typeName =
        onnx::TensorProto::DataType_IsValid(proto.data_type())
            ? onnx::TensorProto::DataType_Name(
                  static_cast<onnx::TensorProto::DataType>(proto.data_type()))
            : "unknown";
    return makeError(what, "unsupported data type " +
                               std::to_string(proto.data_type()) + " (" +
                               typeName + ")");
  }

  HostTensor tensor;
  tensor.name = proto.name();
  tensor.dtype = *dtype;
  tensor.shape.assign(proto.dims().begin(), proto.dims().end());
  Result<uint64_t> needed = checkedByteSize(tensor.shape, tensor.dtype, what);
  if (!needed)
    return Error{needed.error()};
  uint64_t count = *needed / dtypeSize(tensor.dtype);
  auto mismatch = [&](const char *field, uint64_t have) {
    return makeError(what, std::string("size mismatch: shape ") +
                               shapeString(tensor.shape) + " of " +
                               dtypeName(tensor.dtype) + " needs " +
                               std::to_string(count) + " elements, " + field +
                               " has " + std::to_string(have));
  };

  if (!proto.raw_data().empty() || count == 0) {
    const std::string &raw = proto.raw_data();
    if (raw.size() != *needed)
      return makeError(what, std::string("size mismatch: shape ") +
                                 shapeString(tensor.shape) + " of " +
                                 dtypeName(tensor.dtype) + " needs " +
                                 std::to_string(*needed) +
                                 " bytes, raw_data has " +
                                 std::to_string(raw.size()));
    tensor.data.assign(raw.begin(), raw.end());
    return tensor;
  }

  // Typed fields, as the ONNX spec assigns them to data types.
  size_t size = dtypeSize(tensor.dtype);
  switch (tensor.dtype) {
  case DType::Float:
    if (static_cast<uint64_t>(proto.float_data_size()) != count)
      return mismatch("float_data", proto.float_data_size());
    copyTypedField(proto.float_data(), size, tensor.data, floatBits);
    break;
  case DType::Double:
    if (static_cast<uint64_t>(proto.double_data_size()) != count)
      return mismatch("double_data", proto.double_data_size());
    copyTypedField(proto.double_data(), size, tensor.data, doubleBits);
    break;
  case DType::Int64:
    if (static_cast<uint64_t>(proto.int64_data_size()) != count)
      return mismatch("int64_data", proto.int64_data_size());
    copyTypedField(proto.int64_data(), size, tensor.data,
                   [](int64_t v) { return static_cast<uint64_t>(v); });
    break;
  case DType::UInt32:
  case DType::UInt64:
    if (static_cast<uint64_t>(proto.uint64_data_size()) != count)
      return mismatch("uint64_data", proto.uint64_data_size());
    copyTypedField(proto.uint64_data(), size, tensor.data,
                   [](uint64_t v) { return v; });
    break;
  case DType::Bool:
    if (static_cast<uint64_t>(proto.int32_data_size()) != count)
      return mismatch("int32_data", proto.int32_data_size());
    copyTypedField(proto.int32_data(), size, tensor.data,
                   [](int32_t v) { return static_cast<uint64_t>(v != 0); });
    break;
  case DType::Int32:
  case DType::Int8:
  case DType::Int16:
  case DType::UInt8:
  case DType::UInt16:
  case DType::Float16:  // bit pattern in the low 16 bits
  case DType::BFloat16: // likewise
    if (static_cast<uint64_t>(proto.int32_data_size()) != count)
      return mismatch("int32_data", proto.int32_data_size());
    copyTypedField(proto.int32_data(), size, tensor.data, [](int32_t v) {
      return static_cast<uint64_t>(static_cast<uint32_t>(v));
    });
    break;
  }
  return tensor;
}

Result<std::string> serializeTensorProtoImpl(const HostTensor &tensor,
                                             const std::string &what) {
  onnx::TensorProto proto;
  proto.set_name(tensor.name);
  proto.set_data_type(static_cast<int32_t>(tensor.dtype));
  for (int64_t d : tensor.shape)
    proto.add_dims(d);
  proto.set_raw_data(tensor.data.data(), tensor.data.size());
  std::string out;
  if (!proto.SerializeToString(&out))
    return makeError(what, "cannot serialize the TensorProto");
  return out;
}

Status checkWritable(const HostTensor &tensor, const std::string &what) {
  Result<uint64_t> needed = checkedByteSize(tensor.shape, tensor.dtype, what);
  if (!needed)
    return Error{needed.error()};
  if (tensor.data.size() == *needed)
    return Status::success();
  return makeError(
      what, "tensor '" + tensor.name + "' has " +
                std::to_string(tensor.data.size()) + " data bytes, but shape " +
                shapeString(tensor.shape) + " of " + dtypeName(tensor.dtype) +
                " needs " + std::to_string(*needed));
}

enum class Format { Npy, Pb };

Result<Format> formatOf(const std::string &path) {
  std::string ext = lowercaseExtension(path);
  if (ext == ".npy")
    return Format::Npy;
  if (ext == ".pb")
    return Format::Pb;
  return makeError(path, "unknown tensor file extension '" + ext +
                             "' (expected .npy or .pb)");
}

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points: each one catches every exception.
//===----------------------------------------------------------------------===//

Result<HostTensor> parseNpy(const std::string &bytes, const std::string &what) {
  return guarded<Result<HostTensor>>(what,
                                     [&] { return parseNpyImpl(bytes, what); });
}

Result<HostTensor> parseTensorProto(const std::string &bytes,
                                    const std::string &what) {
  return guarded<Result<HostTensor>>(
      what, [&] { return parseTensorProtoImpl(bytes, what); });
}

Result<std::string> serializeNpy(const HostTensor &tensor,
                                 const std::string &what) {
  return guarded<Result<std::string>>(what, [&]() -> Result<std::string> {
    if (Status s = checkWritable(tensor, what); !s)
      return Error{s.error()};
    return serializeNpyImpl(tensor, what);
  });
}

Result<std::string> serializeTensorProto(const HostTensor &tensor,
                                         const std::string &what) {
  return guarded<Result<std::string>>(what, [&]() -> Result<std::string> {
    if (Status s = checkWritable(tensor, what); !s)
      return Error{s.error()};
    return serializeTensorProtoImpl(tensor, what);
  });
}

Result<HostTensor> readTensorFile(const std::string &path) {
  return guarded<Result<HostTensor>>(path, [&]() -> Result<HostTensor> {
    Result<Format> format = formatOf(path);
    if (!format)
      return Error{format.error()};
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes)
      return Error{bytes.error()};
    return *format == Format::Npy ? parseNpyImpl(*bytes, path)
                                  : parseTensorProtoImpl(*bytes, path);
  });
}

Status writeTensorFile(const std::string &path, const HostTensor &tensor) {
  return guarded<Status>(path, [&]() -> Status {
    Result<Format> format = formatOf(path);
    if (!format)
      return Error{format.error()};
    if (Status s = checkWritable(tensor, path); !s)
      return s;
    Result<std::string> bytes = *format == Format::Npy
                                    ? serializeNpyImpl(tensor, path)
                                    : serializeTensorProtoImpl(tensor, path);
    if (!bytes)
      return Error{bytes.error()};
    return writeWholeFile(path, *bytes);
  });
}

} // namespace tgc
