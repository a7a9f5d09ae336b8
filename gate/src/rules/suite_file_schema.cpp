// The JSON Schemas of suite files, rendered from the tables (suite_file_table.hpp). Written out here are only the
// constraints between fields that a row cannot hold: a tolerance's amount and reason depend on its kind, and a
// test is either of its two forms.
#include <bankgate/gate/rules/suite_file_schema.hpp>
#include <bankgate/gate/rules/suite_file_table.hpp>
#include <bankgate/gate/text/text.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace bankgate::gate {
namespace {

using nlohmann::json;

constexpr const char* draft = "https://json-schema.org/draft/2020-12/schema";
constexpr const char* shared_file = "suite-file.schema.json";

json reference(std::string_view name) { return {{"$ref", "#/$defs/" + std::string(name)}}; }

void add_bounds(json& schema, const SchemaField& f, const char* minimum, const char* maximum) {
  if (f.minimum) schema[minimum] = json_number(*f.minimum);
  if (f.maximum) schema[maximum] = json_number(*f.maximum);
}

json string_schema(const SchemaField& f) {
  if (!f.choices.empty()) {
    json choices = json::array();
    for (std::string_view c : f.choices) choices.push_back(c);
    return {{"enum", choices}};
  }
  json schema = {{"type", "string"}};
  if (!f.pattern.empty()) schema["pattern"] = f.pattern;
  return schema;
}

// Numbers without bounds of their own refer to the shared "count" and "non_negative".
json number_schema(const SchemaField& f) {
  if (f.type == JsonType::count && !f.minimum && !f.maximum) return reference("count");
  if (f.type == JsonType::non_negative && !f.minimum && !f.maximum) return reference("non_negative");
  json schema = {{"type", f.type == JsonType::non_negative ? "number" : "integer"}};
  if (f.type != JsonType::integer) schema["minimum"] = 0;
  add_bounds(schema, f, "minimum", "maximum");
  return schema;
}

json field_schema(const SchemaField& f) {
  json schema;
  switch (f.type) {
    case JsonType::string:
      schema = string_schema(f);
      break;
    case JsonType::text:
      schema = {{"type", "string"}, {"minLength", 1}};
      break;
    case JsonType::boolean:
      schema = {{"type", "boolean"}};
      break;
    case JsonType::integer:
    case JsonType::count:
    case JsonType::non_negative:
      schema = number_schema(f);
      break;
    case JsonType::object:
      schema = reference(f.of);
      break;
    case JsonType::array:
      schema = {{"type", "array"}, {"items", reference(f.of)}};
      add_bounds(schema, f, "minItems", "maxItems");
      break;
    case JsonType::map:
      schema = {{"type", "object"}, {"additionalProperties", reference(f.of)}};
      break;
  }
  if (!f.description.empty()) schema["description"] = f.description;
  return schema;
}

// The suite file's own object stays open: baseline.schema.json and candidate.schema.json close it, the candidate
// with its candidates-only fields added.
json object_schema(const SchemaObject& object, bool closed) {
  json properties = json::object();
  json required = json::array();
  for (const SchemaField& f : object.fields) {
    if (f.candidate_only && !closed) continue;
    properties[std::string(f.key)] = field_schema(f);
    if (f.required) required.push_back(f.key);
  }
  json schema = {
      {"type", "object"}, {"description", object.description}, {"required", required}, {"properties", properties}};
  if (closed) schema["additionalProperties"] = false;
  return schema;
}

json shared_schema() {
  json defs = json::object();
  for (const SchemaObject& object : schema_objects())
    defs[std::string(object.name)] = object_schema(object, &object != &schema_object(Part::suite_file));
  defs["count"] = {{"type", "integer"}, {"minimum", 0}};
  defs["non_negative"] = {{"type", "number"}, {"minimum", 0}};
  defs["tolerance"]["if"] = {{"properties", {{"kind", {{"const", "exact"}}}}}};
  defs["tolerance"]["then"] = {{"not", {{"required", {"amount"}}}}};
  defs["tolerance"]["else"] = {{"required", {"amount", "reason"}}};
  defs["test"] = {{"description", "a test of one kernel, or of several"},
                  {"oneOf", {reference("test_of_one_kernel"), reference("test_of_kernels")}}};
  return {{"$schema", draft},
          {"$id", shared_file},
          {"title", "bankgate baseline and candidate files (schema " + std::to_string(current_schema_version) +
                        "): what one suite's tests measured on one GPU model"},
          {"description",
           "Rendered from gate/src/rules/suite_file_table.cpp by tests/unit/suite_file_schemas: edit the "
           "table, not this file. bankgate's reader (gate/src/rules/baseline_json.cpp) checks more than "
           "a schema can: known metric names, limits between fields, names safe as file names."},
          {"$defs", defs}};
}

json file_schema(const char* id, const char* title) {
  return {{"$schema", draft},
          {"$id", id},
          {"title", title},
          {"allOf", {{{"$ref", std::string(shared_file) + "#/$defs/suite_file"}}}},
          {"unevaluatedProperties", false}};
}

// Baselines hold none of the candidates-only fields, at a test's level or in any of its kernels.
json baseline_schema() {
  json schema = file_schema("baseline.schema.json",
                            "bankgate baseline file: baselines/<arch>/<model>/<suite>.json, "
                            "committed in the project");
  json forbidden = json::array();
  for (const SchemaField& f : schema_object(Part::kernel).fields) {
    if (!f.candidate_only) continue;
    forbidden.push_back({{"required", {f.key}}});
    forbidden.push_back(
        {{"required", {"kernels"}}, {"properties", {{"kernels", {{"contains", {{"required", {f.key}}}}}}}}});
  }
  schema["properties"]["tests"]["additionalProperties"] = {{"not", {{"anyOf", forbidden}}},
                                                           {"description", "baselines hold no candidates-only field"}};
  return schema;
}

json candidate_schema() {
  json schema = file_schema("candidate.schema.json",
                            "bankgate candidate file: what one run measured, "
                            "<candidates>/<arch>/<model>/<suite>/<test>.json");
  schema["properties"] = json::object();
  for (const SchemaField& f : schema_object(Part::suite_file).fields)
    if (f.candidate_only) schema["properties"][std::string(f.key)] = field_schema(f);
  return schema;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> suite_file_json_schemas() {
  return {{shared_file, json_text(shared_schema()) + "\n"},
          {"baseline.schema.json", json_text(baseline_schema()) + "\n"},
          {"candidate.schema.json", json_text(candidate_schema()) + "\n"}};
}

}  // namespace bankgate::gate
