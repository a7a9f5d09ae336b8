// Writes the HTML report of the planted run (planted_report.hpp) for headless Chromium to render
// (html_report_render_test.sh), with source text from SOURCES and, where given, source links by TEMPLATE.
//   html_report_sample OUT.html SOURCES [TEMPLATE]
#include <fstream>
#include <iostream>

#include <bankgate/gate/reports/html_report.hpp>

#include "planted_report.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: html_report_sample OUT.html SOURCES [TEMPLATE]\n";
    return 64;
  }
  std::ofstream out(argv[1]);
  out << bankgate::gate::render_html(bankgate::gate::planted::summary(),
                                     {argv[2], "bankgate gate", argc > 3 ? argv[3] : ""});
  return out.good() ? 0 : 1;
}
