#pragma once
// One self-contained HTML page for a gate run: failures first; per test its counters against the baseline, its
// per-source-line shared-memory figures beside the source text, and its duration samples against the
// baseline's distribution as a plot. Inline CSS and SVG only: it opens offline and fetches nothing.

#include <filesystem>
#include <string>

#include <bankgate/gate/gate_summary.hpp>

namespace bankgate::gate {

// `sources`: the project's source folder, where the per-line figures' files are looked up to show their text;
// empty or missing files leave the text out.
// `title` names the run, e.g. "bankgate gate" or "bankgate compare: head against base".
std::string render_html(const GateSummary& summary, const std::filesystem::path& sources,
                        const std::string& title = "bankgate gate");

}  // namespace bankgate::gate
