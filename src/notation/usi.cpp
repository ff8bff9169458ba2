// USI moves and position strings.
#include "usi.h"

#include <vector>

#include "core/text.h"

namespace hisha::notation {

using namespace hisha::core;

namespace {

ParseError bad(std::string message, int line, int column) {
    return ParseError{ParseErrorCode::BadMove, std::move(message), line, column};
}

// A square at text[i..i+1], or the column of the first wrong character.
Result<Square, ParseError> usi_square(std::string_view text, std::size_t i, int line, int column) {
    if (i >= text.size() || text[i] < '1' || text[i] > '9')
        return unexpected(bad(i >= text.size() ? "move too short" : "expected a file 1-9", line, column + int(i)));
    if (i + 1 >= text.size() || text[i + 1] < 'a' || text[i + 1] > 'i')
        return unexpected(
            bad(i + 1 >= text.size() ? "move too short" : "expected a rank a-i", line, column + int(i) + 1));
    return make_square(File(text[i] - '1'), Rank(text[i + 1] - 'a'));
}

// The move the text spells, without a legality check.
Result<Move, ParseError> usi_syntax(const Position& pos, std::string_view text, int line, int column) {
    if (text.empty())
        return unexpected(bad("empty move", line, column));
    if (text.size() >= 2 && text[1] == '*') {
        static constexpr std::string_view DROPPABLE = " PLNSBRG";
        auto k = DROPPABLE.find(text[0]);
        if (k == std::string_view::npos || k == 0)
            return unexpected(
                bad(std::string("'") + text[0] + "' is not a piece that can be dropped (P L N S G B R)", line, column));
        auto to = usi_square(text, 2, line, column);
        if (!to)
            return unexpected(to.error());
        if (text.size() > 4)
            return unexpected(bad("unexpected text after the move", line, column + 4));
        return pos.make_drop(PieceType(k), *to);
    }
    auto from = usi_square(text, 0, line, column);
    if (!from)
        return unexpected(from.error());
    auto to = usi_square(text, 2, line, column);
    if (!to)
        return unexpected(to.error());
    bool promote_it = text.size() > 4 && text[4] == '+';
    std::size_t end = promote_it ? 5 : 4;
    if (text.size() > end)
        return unexpected(bad(text[4] == '=' ? "USI has no '=': leave the suffix out to decline promotion"
                                             : "unexpected text after the move",
                              line, column + int(end)));
    return pos.make_move(*from, *to, promote_it);
}

ParseError with_index(ParseError e, std::size_t index) {
    e.message = "move " + std::to_string(index) + ": " + e.message;
    return e;
}

// The SFEN fields start at tokens[first]; returns the index after them (at `moves` or the end).
std::size_t sfen_end(const std::vector<hisha::text::Word>& tokens, std::size_t first) {
    std::size_t i = first;
    while (i < tokens.size() && tokens[i].text != "moves")
        ++i;
    return i;
}

}  // namespace

Result<Move, ParseError> parse_usi_move(const Position& pos, std::string_view text, int line, int column) {
    auto m = usi_syntax(pos, text, line, column);
    if (!m)
        return m;
    if (auto r = pos.check_move(*m); !r)
        return unexpected(move_error(line, column, text, explain_illegal(pos, *m, r.error())));
    return m;
}

std::string write_usi_move(Move m) { return to_usi(m); }

Result<GameRecord, ParseError> parse_usi_position(std::string_view text, int line) {
    std::vector<hisha::text::Word> tokens = hisha::text::words_with_columns(text, " \t\r\n");
    std::size_t i = 0;
    if (i < tokens.size() && tokens[i].text == "position")
        ++i;
    if (i >= tokens.size())
        return unexpected(ParseError{ParseErrorCode::Empty, "expected startpos or sfen", line, int(text.size()) + 1});
    GameRecord rec;
    auto pos = std::make_unique<Position>();
    std::size_t end;
    if (tokens[i].text == "startpos") {
        end = i + 1;
    } else {
        std::size_t first = tokens[i].text == "sfen" ? i + 1 : i;
        if (first == i && tokens[i].text.find('/') == std::string_view::npos)
            return unexpected(
                ParseError{ParseErrorCode::BadBoard,
                           "expected startpos, sfen or an SFEN board, found '" + std::string(tokens[i].text) + "'",
                           line, tokens[i].column});
        end = sfen_end(tokens, first);
        if (first == end)
            return unexpected(ParseError{ParseErrorCode::MissingField, "missing SFEN after 'sfen'", line,
                                         first < tokens.size() ? tokens[first].column : int(text.size()) + 1});
        int offset = tokens[first].column - 1;
        std::size_t stop = end < tokens.size() ? std::size_t(tokens[end].column - 1) : text.size();
        std::string_view sfen = text.substr(std::size_t(offset), stop - std::size_t(offset));
        if (auto r = pos->set(sfen, SfenRules::Relaxed); !r) {
            ParseError e = r.error();
            e.line = line;
            e.column = e.column > 0 ? e.column + offset : tokens[first].column;
            return unexpected(e);
        }
        rec.start_sfen = pos->sfen();
        if (auto h = handicap_from_sfen(rec.start_sfen); h && *h != Handicap::Even)
            rec.handicap = h;
    }
    if (end < tokens.size() && tokens[end].text != "moves")
        return unexpected(ParseError{ParseErrorCode::TooManyFields,
                                     "expected 'moves', found '" + std::string(tokens[end].text) + "'", line,
                                     tokens[end].column});
    for (std::size_t k = end + 1; k < tokens.size(); ++k) {
        auto m = parse_usi_move(*pos, tokens[k].text, line, tokens[k].column);
        if (!m)
            return unexpected(with_index(m.error(), k - end));
        pos->play(*m);
        rec.moves.push_back(MoveRecord{*m, {}, {}, {}});
    }
    return rec;
}

std::string write_usi_position(const GameRecord& rec) {
    Position pos;
    std::string out = "position ";
    if (pos.set(rec.start_sfen, SfenRules::Relaxed) && pos.sfen() == START_SFEN)
        out += "startpos";
    else
        out += "sfen " + rec.start_sfen;
    if (!rec.moves.empty()) {
        out += " moves";
        for (const auto& m : rec.moves) {
            out += ' ';
            out += to_usi(m.move);
        }
    }
    return out;
}

}  // namespace hisha::notation
