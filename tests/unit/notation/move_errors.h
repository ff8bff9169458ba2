// The move readers' error tables (tests/data/notation/move-errors/*.tsv) and what their tests
// check of each error: the code, the line, the column and the message.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/parse_error.h"
#include "test_files.h"

namespace hisha::testing {

/// The rows of move-errors/NAME.tsv, each of `columns` fields.
inline std::vector<std::vector<std::string>> move_error_rows(const std::string& name, std::size_t columns) {
    return case_rows(notation_data("move-errors/" + name + ".tsv"), columns);
}

/// Expects the error `e` to have `code`, `line`, `column` and `message`.
inline void expect_error(const core::ParseError& e, core::ParseErrorCode code, int line, int column,
                         const std::string& message) {
    EXPECT_EQ(e.code, code) << e.to_string();
    EXPECT_EQ(e.line, line) << e.to_string();
    EXPECT_EQ(e.column, column) << e.to_string();
    EXPECT_EQ(e.message, message);
}

}  // namespace hisha::testing
