#pragma once
// The collector's per-instruction figures as per-line figures of a baseline: instructions of one kind on one
// source line summed, files named relative to the project, and instructions inlined from code outside the
// project (a CUDA or library header) placed on the project's own line that called them.

#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/results.hpp>

namespace bankgate::gate {

// `source_dir`: the project's source folder; files inside it are named relative to it, others by their name
// alone, so that baselines read the same on every machine. Every instruction also counts in its line's
// "instructions" entry, so a change in instruction counts has a place.
std::vector<SourceLineFigures> figures_by_line(const std::vector<InstructionFigures>& instructions,
                                               const std::string& source_dir);

// Whether per-line figures came without a line table: instructions were attributed, but not one of them to a
// source line. The kernel was built without -lineinfo, as a project's own library is unless it asks for it.
bool lacks_line_table(const std::vector<SourceLineFigures>& lines);
// What to tell the user of such a kernel: that it has no line information, and how to build it with some.
std::string no_line_table_note(const std::string& kernel);

// What the lines imply, by name: bank conflicts (wavefronts above the ideal) of each shared kind, e.g.
// "shared_load_bank_conflicts", and uncoalesced sectors (above the ideal) of each global kind, e.g.
// "global_store_excess_sectors".
std::map<std::string, double> excess_by_kind(const std::vector<SourceLineFigures>& lines);

}  // namespace bankgate::gate
