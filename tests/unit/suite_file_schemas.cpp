// Writes the suite-file JSON Schemas the tables give (suite_file_json_schemas) into a folder: the project's
// schemas/ after a change to gate/src/rules/suite_file_table.cpp.
#include <bankgate/gate/rules/suite_file_schema.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: suite_file_schemas <schemas folder>\n";
    return 2;
  }
  for (const auto& [name, text] : bankgate::gate::suite_file_json_schemas()) {
    const std::filesystem::path path = std::filesystem::path(argv[1]) / name;
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
      std::cerr << "suite_file_schemas: cannot write " << path << "\n";
      return 1;
    }
    std::cout << "wrote " << path.string() << "\n";
  }
  return 0;
}
