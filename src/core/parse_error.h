// ParseError: what every parser in Hisha returns on bad input: a code, a message that names
// the field, and the 1-based line and column where the problem starts (0 when unknown).
#pragma once

#include <string>

namespace hisha::core {

enum class ParseErrorCode {
    Empty,
    MissingField,
    TooManyFields,
    BadBoard,
    BadSideToMove,
    BadHand,
    BadMoveNumber,
    IllegalPosition,
    BadMove,
    IllegalMove,
    BadHeader,
    BadEncoding,
    Unsupported,
};

struct ParseError {
    ParseErrorCode code = ParseErrorCode::Empty;
    std::string message;
    int line = 0;
    int column = 0;

    // "line 3, col 7: message" (or "col 7: message" when no line is known).
    std::string to_string() const {
        std::string where;
        if (line > 0)
            where = "line " + std::to_string(line) + ", ";
        if (column > 0)
            where += "col " + std::to_string(column) + ": ";
        else if (!where.empty())
            where.replace(where.size() - 2, 2, ": ");
        return where + message;
    }
};

}  // namespace hisha::core
