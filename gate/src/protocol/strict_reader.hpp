#pragma once
// A strict reader of one JSON object that bankgate's processes hand one another (the result record, the plan):
// a missing field or one of the wrong type is an error naming the file and the field, never a default.

#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace bankgate::gate {

// `Error` is what fail() throws: an exception constructible from the message (ResultRecordError).
template <class Error>
class StrictReader {
 public:
  // `what` names the kind of file in messages ("the test result record"); `remedy` ends them.
  StrictReader(const nlohmann::json& doc, std::string what, std::string origin, std::string remedy)
      : doc_(doc), what_(std::move(what)), origin_(std::move(origin)), remedy_(std::move(remedy)) {}

  const nlohmann::json& at(const char* key, bool (nlohmann::json::*is)() const noexcept, const char* type) const {
    const auto it = doc_.find(key);
    if (it == doc_.end()) fail(std::string("has no \"") + key + "\"");
    if (!((*it).*is)()) fail(std::string("has \"") + key + "\" that is not " + type);
    return *it;
  }
  // Refuses what is no object, a field not in `fields`, another schema (`kind` names the wanted one in the
  // message: "no test plan") and another version.
  void expect(const std::set<std::string>& fields, const std::string& schema, int version,
              const std::string& kind) const {
    if (!doc_.is_object()) fail("is not a JSON object");
    for (const auto& [key, value] : doc_.items())
      if (!fields.contains(key)) fail("has an unknown field \"" + key + "\"");
    if (text("schema") != schema) fail("is " + kind + " (its \"schema\" is another)");
    if (at("schema_version", &nlohmann::json::is_number_unsigned, "a version number").template get<std::uint64_t>() !=
        static_cast<std::uint64_t>(version))
      fail("is of another schema version (a bankgate of another release wrote it)");
  }
  std::string text(const char* key) const {
    return at(key, &nlohmann::json::is_string, "text").template get<std::string>();
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(what_ + " " + origin_ + " " + why + "; " + remedy_);
  }

 private:
  const nlohmann::json& doc_;
  std::string what_, origin_, remedy_;
};

}  // namespace bankgate::gate
