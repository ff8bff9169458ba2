// Western (Hodges / SHOGI-L) notation: reading through the shared MoveSpec matcher, writing
// the canonical form.
#include "western.h"

#include <cctype>

namespace hisha::notation {

using namespace hisha::core;

namespace {

// The text without spaces, with the column of every remaining character (and one past the end).
struct Compact {
    std::string text;
    std::vector<int> cols;
};

Compact compact(std::string_view s, int column) {
    Compact c;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] != ' ' && s[i] != '\t') {
            c.text += s[i];
            c.cols.push_back(column + int(i));
        }
    c.cols.push_back(column + int(s.size()));
    return c;
}

ParseError bad(std::string message, int line, int column) {
    return ParseError{ParseErrorCode::BadMove, std::move(message), line, column};
}

bool is_file_char(char c) { return c >= '1' && c <= '9'; }
bool is_rank_char(char c) {
    char l = char(std::tolower(static_cast<unsigned char>(c)));
    return l >= 'a' && l <= 'i';
}
// A rank as a letter a-i, or as a digit 1-9 as some books write it (P76 = P-7f).
bool is_rank_or_digit(char c) { return is_rank_char(c) || is_file_char(c); }
int rank_index(char c) { return is_file_char(c) ? c - '1' : std::tolower(static_cast<unsigned char>(c)) - 'a'; }

// The piece named at text[i] (with `promoted` for a '+' before it); NO_PIECE_TYPE if none.
PieceType western_piece(char ch, bool promoted) {
    char u = char(std::toupper(static_cast<unsigned char>(ch)));
    if (!promoted && (u == 'T' || u == 'H' || u == 'D'))
        return u == 'T' ? PRO_PAWN : u == 'H' ? HORSE : DRAGON;  // 81Dojo letters
    PieceType pt = piece_from_letter(u);
    if (pt == NO_PIECE_TYPE || (promoted && !can_promote(pt)))
        return NO_PIECE_TYPE;
    return promoted ? promote(pt) : pt;
}

// Origin ("4a", "4", "a") and movement sign between the piece and the destination.
Result<void, ParseError> read_middle(const Compact& c, std::size_t i, std::size_t end, MoveSpec& spec, int line) {
    if (end > i) {
        char sign = c.text[end - 1];
        if (sign == '-' || sign == 'x' || sign == 'X' || sign == '*' || sign == '\'') {
            spec.drop = sign == '*' || sign == '\'';
            spec.capture = sign == '-' ? MoveSpec::Capture::No
                         : (sign == 'x' || sign == 'X') ? MoveSpec::Capture::Yes
                                                        : MoveSpec::Capture::Any;
            --end;
        }
    }
    std::size_t len = end - i;
    if (len == 0)
        return {};
    if (spec.drop)
        return unexpected(bad("a drop has no origin square", line, c.cols[i]));
    if (len == 2 && is_file_char(c.text[i]) && is_rank_or_digit(c.text[i + 1])) {
        spec.from_file = c.text[i] - '1';
        spec.from_rank = rank_index(c.text[i + 1]);
    } else if (len == 1 && is_file_char(c.text[i])) {
        spec.from_file = c.text[i] - '1';
    } else if (len == 1 && is_rank_char(c.text[i])) {
        spec.from_rank = rank_index(c.text[i]);
    } else {
        std::size_t k = i;
        if (len >= 2 && is_file_char(c.text[i]))
            k = is_rank_or_digit(c.text[i + 1]) ? i + 2 : i + 1;
        return unexpected(bad(std::string("unexpected '") + c.text[k] + "'", line, c.cols[k]));
    }
    return {};
}

Result<MoveSpec, ParseError> read_piece_move(const Compact& c, int line) {
    MoveSpec spec;
    const std::string& t = c.text;
    std::size_t i = t[0] == '+' ? 1 : 0;
    if (i >= t.size())
        return unexpected(bad("expected a piece letter after '+'", line, c.cols[i]));
    spec.piece = western_piece(t[i], i == 1);
    if (spec.piece == NO_PIECE_TYPE) {
        bool known = western_piece(t[i], false) != NO_PIECE_TYPE;
        return unexpected(bad(known ? std::string("a '") + t[i] + "' cannot be promoted"
                                    : "expected a piece letter P L N S G B R K",
                              line, c.cols[i]));
    }
    ++i;
    std::size_t end = t.size();
    if (end > i && (t[end - 1] == '+' || t[end - 1] == '=')) {
        spec.promotion = t[end - 1] == '+' ? MoveSpec::Promotion::Promote : MoveSpec::Promotion::Decline;
        --end;
    }
    // The destination is the last two characters before the suffix.
    if (end < i + 2)
        return unexpected(bad("missing destination square", line, c.cols[end]));
    if (is_file_char(t[end - 1]) && !is_file_char(t[end - 2]))
        return unexpected(bad("expected a rank a-i", line, c.cols[end]));
    if (!is_file_char(t[end - 2]))
        return unexpected(bad("expected a destination square (file 1-9, rank a-i)", line, c.cols[end - 2]));
    if (!is_rank_or_digit(t[end - 1]))
        return unexpected(bad("expected a rank a-i", line, c.cols[end - 1]));
    spec.to = make_square(File(t[end - 2] - '1'), Rank(rank_index(t[end - 1])));
    if (auto r = read_middle(c, i, end - 2, spec, line); !r)
        return unexpected(r.error());
    if (spec.drop && is_promoted(spec.piece))
        return unexpected(bad("a promoted piece cannot be dropped", line, c.cols[0]));
    if (spec.drop && spec.promotion != MoveSpec::Promotion::Open)
        return unexpected(bad("a drop cannot promote", line, c.cols[t.size() - 1]));
    return spec;
}

// Legal moves for a spec, with the two single-reading tolerances of the file comment.
std::vector<Move> western_matches(const Position& pos, MoveSpec spec) {
    bool plus = spec.promotion == MoveSpec::Promotion::Promote;
    if (spec.promotion == MoveSpec::Promotion::Open)
        spec.promotion = MoveSpec::Promotion::Decline;
    std::vector<Move> found = matching_moves(pos, spec);
    if (found.empty() && !spec.drop && spec.piece != NO_PIECE_TYPE && !is_promoted(spec.piece)) {
        MoveSpec gnu = spec;
        gnu.base_letter = true;
        if (auto alt = matching_moves(pos, gnu); alt.size() == 1)
            found = alt;
    }
    if (found.empty() && plus) {
        MoveSpec check = spec;
        check.promotion = MoveSpec::Promotion::Decline;
        auto alt = matching_moves(pos, check);
        if (alt.size() == 1 && !promotion_possible(pos, alt[0]) && pos.gives_check(alt[0]))
            found = alt;
    }
    return found;
}

std::string no_match_reason(const Position& pos, MoveSpec spec) {
    if (spec.promotion == MoveSpec::Promotion::Open)
        spec.promotion = MoveSpec::Promotion::Decline;
    std::string reason = explain_no_match(pos, spec);
    if (!spec.drop && spec.piece >= PAWN && spec.piece <= GOLD && pos.is_legal(pos.make_drop(spec.piece, spec.to)))
        reason += std::string(" (a drop is written ") + piece_letter(spec.piece) + "*" + square_to_usi(spec.to) + ")";
    return reason;
}

}  // namespace

Result<MoveSpec, ParseError> parse_western_spec(std::string_view text, int line, int column) {
    Compact c = compact(text, column);
    while (!c.text.empty() && (c.text.back() == '?' || c.text.back() == '!')) {
        c.text.pop_back();
        c.cols.erase(c.cols.end() - 2);
    }
    if (c.text.empty())
        return unexpected(bad("empty move", line, column));
    if (c.text[0] >= '0' && c.text[0] <= '9') {
        auto spec = parse_coordinate_spec(c.text, line, 1);
        if (!spec) {
            ParseError e = spec.error();
            e.column = c.cols[std::min(std::size_t(e.column - 1), c.cols.size() - 1)];
            return unexpected(e);
        }
        return spec;
    }
    return read_piece_move(c, line);
}

Result<Move, ParseError> parse_western(const Position& pos, std::string_view text, int line, int column) {
    auto spec = parse_western_spec(text, line, column);
    if (!spec)
        return unexpected(spec.error());
    std::vector<Move> found = western_matches(pos, *spec);
    if (found.size() == 1)
        return found[0];
    std::string t(text);
    if (found.empty())
        return unexpected(move_error(line, column, t, no_match_reason(pos, *spec)));
    std::string list;
    for (Move m : found) {
        list += list.empty() ? "" : ", ";
        list += write_western(pos, m);
    }
    return unexpected(bad(t + ": ambiguous: " + list, line, column));
}

std::string write_western(const Position& pos, Move m) {
    if (!m.is_ok())
        return to_usi(m);
    std::string to = square_to_usi(m.to());
    if (m.is_drop())
        return std::string{piece_letter(m.dropped_piece()), '*'} + to;
    PieceType pt = type_of(pos.piece_on(m.from()));
    std::string out;
    if (is_promoted(pt))
        out += '+';
    out += piece_letter(pt);
    MoveSpec same;
    same.piece = pt;
    same.to = m.to();
    for (Move other : matching_moves(pos, same))
        if (other.from() != m.from()) {
            out += square_to_usi(m.from());
            break;
        }
    out += pos.piece_on(m.to()) != NO_PIECE ? 'x' : '-';
    out += to;
    if (promotion_possible(pos, m))
        out += m.is_promotion() ? '+' : '=';
    return out;
}

bool looks_like_move(std::string_view text) { return parse_western_spec(text).has_value(); }

}  // namespace hisha::notation
