#pragma once
// Numbers as every message and table of the gate shows them. Apart from report.hpp because the rules
// (comparison.cpp: tolerances and timing decisions in words) need them too, and reports are made of the
// rules' findings, not the other way round.

#include <string>

namespace bankgate::gate {

std::string format_number(double value);  // integers without fraction, others with up to 3 decimals

std::string format_change(double measured, double baseline);  // "+31744 (+3100.0%)"

}  // namespace bankgate::gate
