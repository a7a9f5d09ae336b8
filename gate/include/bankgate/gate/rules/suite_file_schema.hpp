#pragma once
// The JSON Schemas of suite files (schemas/suite-file.schema.json, baseline.schema.json, candidate.schema.json),
// rendered from the schema's tables (suite_file_table.hpp), so that the published schemas and bankgate's reader
// cannot drift apart.

#include <string>
#include <utility>
#include <vector>

namespace bankgate::gate {

// (file name, text) of each schema. The suite_file_schemas program (tests/unit/suite_file_schemas.cpp) writes them
// into a folder.
std::vector<std::pair<std::string, std::string>> suite_file_json_schemas();

}  // namespace bankgate::gate
