// GNU Shogi's move notation and the MoveSpec matcher shared with the Western reader.
#include "coordinate.h"

#include <algorithm>

namespace hisha::notation {

using namespace hisha::core;

namespace {

constexpr std::string_view LETTERS = " PLNSBRGK";  // indexed by unpromoted PieceType

bool is_file_char(char c) { return c >= '1' && c <= '9'; }
bool is_rank_char(char c) { return c >= 'a' && c <= 'i'; }
Square square_of(char f, char r) { return make_square(File(f - '1'), Rank(r - 'a')); }
const char* side_name(Color c) { return c == BLACK ? "Black" : "White"; }

bool piece_fits(const MoveSpec& spec, PieceType pt) {
    if (spec.piece == NO_PIECE_TYPE || pt == spec.piece)
        return true;
    return spec.base_letter && !is_promoted(spec.piece) && unpromote(pt) == spec.piece;
}

bool origin_fits(const MoveSpec& spec, Square s) {
    return (spec.from_file < 0 || file_of(s) == spec.from_file) && (spec.from_rank < 0 || rank_of(s) == spec.from_rank);
}

bool capture_fits(const Position& pos, const MoveSpec& spec) {
    Piece target = pos.piece_on(spec.to);
    bool enemy = target != NO_PIECE && color_of(target) != pos.side_to_move();
    return spec.capture == MoveSpec::Capture::Any || (spec.capture == MoveSpec::Capture::Yes) == enemy;
}

// The board moves (one per origin) that a failed spec most plausibly meant.
std::vector<Move> attempts_for(const Position& pos, const MoveSpec& spec) {
    std::vector<Move> out;
    bool promote = spec.promotion == MoveSpec::Promotion::Promote;
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        Piece pc = pos.piece_on(s);
        if (pc == NO_PIECE || color_of(pc) != pos.side_to_move() || !piece_fits(spec, type_of(pc))
            || !origin_fits(spec, s))
            continue;
        out.push_back(pos.make_move(s, spec.to, promote));
    }
    return out;
}

std::string explain_drop(const Position& pos, const MoveSpec& spec) {
    if (spec.piece < PAWN || spec.piece > GOLD)
        return "a " + piece_name(spec.piece) + " cannot be dropped";
    if (spec.promotion == MoveSpec::Promotion::Promote)
        return "a dropped piece cannot promote";
    if (spec.capture == MoveSpec::Capture::Yes)
        return "a drop cannot capture";
    Move m = pos.make_drop(spec.piece, spec.to);
    auto r = pos.check_move(m);
    return r ? std::string("the drop is legal") : explain_illegal(pos, m, r.error());
}

std::string explain_capture(const Position& pos, const MoveSpec& spec) {
    std::string sq = square_to_usi(spec.to);
    if (spec.capture == MoveSpec::Capture::Yes)
        return "nothing to capture on " + sq;
    Piece target = pos.piece_on(spec.to);
    return sq + " holds a " + side_name(color_of(target)) + " " + piece_name(type_of(target))
         + " (a capture is written with x)";
}

// When the spec names the origin square and a piece, and another piece stands there.
std::string explain_wrong_piece(const Position& pos, const MoveSpec& spec) {
    Square from = make_square(File(spec.from_file), Rank(spec.from_rank));
    Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != pos.side_to_move())
        return std::string("no ") + side_name(pos.side_to_move()) + " piece on " + square_to_usi(from);
    return "the piece on " + square_to_usi(from) + " is a " + piece_name(type_of(pc)) + ", not a "
         + piece_name(spec.piece);
}

std::string no_piece_can_reach(const Position& pos, const MoveSpec& spec) {
    std::string what = spec.piece == NO_PIECE_TYPE ? "piece" : piece_name(spec.piece);
    return std::string("no ") + side_name(pos.side_to_move()) + " " + what + " can move to " + square_to_usi(spec.to);
}

// The moves a GNU-style input selects: an open promotion keeps the non-promotion, and the
// promotion only where the non-promotion is legal too (then the player must choose).
std::vector<Move> coordinate_matches(const Position& pos, const MoveSpec& spec) {
    std::vector<Move> all = matching_moves(pos, spec);
    if (spec.promotion != MoveSpec::Promotion::Open)
        return all;
    std::vector<Move> out;
    for (Move m : all) {
        bool keep = !m.is_promotion()
                 || std::any_of(all.begin(), all.end(), [&](Move o) {
                        return !o.is_promotion() && !o.is_drop() && o.from() == m.from() && o.to() == m.to();
                    });
        if (keep)
            out.push_back(m);
    }
    return out;
}

ParseError syntax_error(std::string message, int line, int column) {
    return ParseError{ParseErrorCode::BadMove, std::move(message), line, column};
}

// Reads a square at text[i], text[i+1]; on error says which character is wrong.
Result<Square, ParseError> read_square(std::string_view text, std::size_t i, int line, int column) {
    if (i >= text.size() || !is_file_char(text[i]))
        return unexpected(syntax_error(i >= text.size() ? "missing destination square" : "expected a file 1-9",
                                       line, column + int(i)));
    if (i + 1 >= text.size() || !is_rank_char(text[i + 1]))
        return unexpected(syntax_error("expected a rank a-i", line, column + int(i) + 1));
    return square_of(text[i], text[i + 1]);
}

// The promotion suffix at text[i] (if any) and the end of the text after it.
Result<MoveSpec::Promotion, ParseError> read_suffix(std::string_view text, std::size_t i, int line, int column) {
    MoveSpec::Promotion p = MoveSpec::Promotion::Open;
    if (i < text.size() && (text[i] == '+' || text[i] == '=')) {
        p = text[i] == '+' ? MoveSpec::Promotion::Promote : MoveSpec::Promotion::Decline;
        ++i;
    }
    if (i < text.size())
        return unexpected(syntax_error(std::string("unexpected '") + text[i] + "'", line, column + int(i)));
    return p;
}

// "7g7f", "2d2c+", "7g7f=".
Result<MoveSpec, ParseError> read_square_form(std::string_view text, int line, int column) {
    MoveSpec spec;
    auto from = read_square(text, 0, line, column);
    if (!from)
        return unexpected(from.error());
    auto to = read_square(text, 2, line, column);
    if (!to)
        return unexpected(to.error());
    auto suffix = read_suffix(text, 4, line, column);
    if (!suffix)
        return unexpected(suffix.error());
    spec.from_file = file_of(*from);
    spec.from_rank = rank_of(*from);
    spec.to = *to;
    spec.promotion = *suffix;
    return spec;
}

// The rest of "P*5e" / "P'5e" from the drop sign at text[i].
Result<MoveSpec, ParseError> read_drop(MoveSpec spec, std::string_view text, std::size_t i, int line, int column) {
    if (is_promoted(spec.piece))
        return unexpected(syntax_error("a promoted piece cannot be dropped", line, column));
    spec.drop = true;
    spec.base_letter = false;
    auto to = read_square(text, i + 1, line, column);
    if (!to)
        return unexpected(to.error());
    spec.to = *to;
    if (i + 3 < text.size())
        return unexpected(syntax_error(text[i + 3] == '+' ? "a drop cannot promote" : "unexpected text after the drop",
                                       line, column + int(i) + 3));
    return spec;
}

// "P7f", "Pg7f", "P77f", "P7g7f", "+P5c", "P2c+", "P*5e", "P'5e".
Result<MoveSpec, ParseError> read_piece_form(std::string_view text, int line, int column) {
    MoveSpec spec;
    std::size_t i = 0;
    bool promoted = text[0] == '+';
    if (promoted)
        ++i;
    char letter = i < text.size() ? text[i] : '\0';
    PieceType pt = piece_from_letter(letter);
    if (pt == NO_PIECE_TYPE) {
        bool lower = letter >= 'a' && letter <= 'z' && piece_from_letter(char(letter - 32)) != NO_PIECE_TYPE;
        return unexpected(syntax_error(lower ? "piece letters are upper case" : "expected a piece letter P L N S G B R K",
                                       line, column + int(i)));
    }
    if (promoted && !can_promote(pt))
        return unexpected(syntax_error(std::string("a ") + letter + " cannot be promoted", line, column));
    spec.piece = promoted ? promote(pt) : pt;
    spec.base_letter = !promoted;
    ++i;
    if (i < text.size() && (text[i] == '*' || text[i] == '\''))
        return read_drop(spec, text, i, line, column);
    // The destination is the last square before the suffix; anything before it is the origin.
    std::size_t end = text.size();
    if (end > i && (text[end - 1] == '+' || text[end - 1] == '='))
        --end;
    if (end < i + 2 || end > i + 4)
        return unexpected(syntax_error(end < i + 2 ? "missing destination square" : "too many characters", line,
                                       column + int(end < i + 2 ? end : i + 4)));
    std::size_t origin_len = end - i - 2;
    if (origin_len == 2) {
        auto from = read_square(text, i, line, column);
        if (!from)
            return unexpected(from.error());
        spec.from_file = file_of(*from);
        spec.from_rank = rank_of(*from);
    } else if (origin_len == 1) {
        char c = text[i];
        if (is_file_char(c))
            spec.from_file = c - '1';
        else if (is_rank_char(c))
            spec.from_rank = c - 'a';
        else
            return unexpected(syntax_error("expected an origin file or rank", line, column + int(i)));
    }
    auto to = read_square(text, end - 2, line, column);
    if (!to)
        return unexpected(to.error());
    spec.to = *to;
    auto suffix = read_suffix(text, end, line, column);
    if (!suffix)
        return unexpected(suffix.error());
    spec.promotion = *suffix;
    return spec;
}

}  // namespace

char piece_letter(PieceType pt) {
    PieceType base = unpromote(pt);
    return base <= KING ? LETTERS[base] : ' ';
}

PieceType piece_from_letter(char upper) {
    if (upper == ' ' || upper == '\0')
        return NO_PIECE_TYPE;
    auto i = LETTERS.find(upper);
    return i == std::string_view::npos ? NO_PIECE_TYPE : PieceType(i);
}

std::string piece_name(PieceType pt) {
    static constexpr const char* NAMES[PIECE_TYPE_NB] = {
        "piece",   "pawn",          "lance",           "knight",          "silver", "bishop", "rook", "gold",
        "king",    "tokin",         "promoted lance",  "promoted knight", "promoted silver", "horse", "dragon"};
    return pt < PIECE_TYPE_NB ? NAMES[pt] : "piece";
}

std::vector<Move> matching_moves(const Position& pos, const MoveSpec& spec) {
    std::vector<Move> out;
    if (!is_ok(spec.to) || !capture_fits(pos, spec))
        return out;
    bool want_promote = spec.promotion != MoveSpec::Promotion::Decline;
    bool want_plain = spec.promotion != MoveSpec::Promotion::Promote;
    if (spec.drop) {
        if (spec.piece >= PAWN && spec.piece <= GOLD && want_plain) {
            Move m = pos.make_drop(spec.piece, spec.to);
            if (pos.is_legal(m))
                out.push_back(m);
        }
        return out;
    }
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        Piece pc = pos.piece_on(s);
        if (pc == NO_PIECE || color_of(pc) != pos.side_to_move() || !piece_fits(spec, type_of(pc))
            || !origin_fits(spec, s))
            continue;
        for (bool promote_it : {false, true}) {
            if ((promote_it && (!want_promote || !can_promote(type_of(pc)))) || (!promote_it && !want_plain))
                continue;
            Move m = pos.make_move(s, spec.to, promote_it);
            if (pos.is_legal(m))
                out.push_back(m);
        }
    }
    return out;
}

std::string explain_no_match(const Position& pos, const MoveSpec& spec) {
    if (!is_ok(spec.to))
        return "no destination square";
    if (spec.drop)
        return explain_drop(pos, spec);
    if (spec.capture != MoveSpec::Capture::Any) {
        MoveSpec any = spec;
        any.capture = MoveSpec::Capture::Any;
        if (!matching_moves(pos, any).empty())
            return explain_capture(pos, spec);
    }
    bool origin_given = spec.from_file >= 0 && spec.from_rank >= 0;
    std::vector<Move> attempts = attempts_for(pos, spec);
    if (attempts.empty() && origin_given && spec.piece == NO_PIECE_TYPE) {
        Move m = pos.make_move(make_square(File(spec.from_file), Rank(spec.from_rank)), spec.to,
                               spec.promotion == MoveSpec::Promotion::Promote);
        auto r = pos.check_move(m);
        return r ? std::string("the move is legal") : explain_illegal(pos, m, r.error());
    }
    if (attempts.empty())
        return origin_given ? explain_wrong_piece(pos, spec) : no_piece_can_reach(pos, spec);
    // Prefer a piece that gets there but breaks another rule (pin, two pawns, dead piece ...).
    for (Move m : attempts) {
        auto r = pos.check_move(m);
        if (!r && r.error() != IllegalMove::CannotReach && r.error() != IllegalMove::NotYourPiece)
            return explain_illegal(pos, m, r.error());
    }
    if (attempts.size() == 1) {
        auto r = pos.check_move(attempts[0]);
        return r ? std::string("the move is legal") : explain_illegal(pos, attempts[0], r.error());
    }
    return no_piece_can_reach(pos, spec);
}

bool promotion_possible(const Position& pos, Move m) {
    if (!m.is_ok() || m.is_drop())
        return false;
    Piece pc = pos.piece_on(m.from());
    if (pc == NO_PIECE || !can_promote(type_of(pc)))
        return false;
    Color us = color_of(pc);
    return in_zone(us, m.from()) || in_zone(us, m.to());
}

Result<MoveSpec, ParseError> parse_coordinate_spec(std::string_view text, int line, int column) {
    // Trailing ? ! ~ are book-quality marks (GNU Shogi strips them).
    while (!text.empty() && (text.back() == '?' || text.back() == '!' || text.back() == '~'))
        text.remove_suffix(1);
    if (text.empty())
        return unexpected(syntax_error("empty move", line, column));
    if (text[0] >= '0' && text[0] <= '9')
        return read_square_form(text, line, column);
    return read_piece_form(text, line, column);
}

core::Result<Move, MoveInputError> parse_coordinate(const Position& pos, std::string_view text, int line, int column) {
    auto spec = parse_coordinate_spec(text, line, column);
    if (!spec)
        return unexpected(MoveInputError{spec.error(), MoveInputStatus::Syntax, {}});
    std::vector<Move> found = coordinate_matches(pos, *spec);
    if (found.size() == 1)
        return found[0];
    std::string t(text);
    if (found.empty())
        return unexpected(MoveInputError{move_error(line, column, t, explain_no_match(pos, *spec)),
                                         MoveInputStatus::Illegal, {}});
    bool choice = found.size() == 2 && found[0].from() == found[1].from() && !found[0].is_drop()
               && found[0].is_promotion() != found[1].is_promotion();
    if (choice) {
        std::string plain = write_coordinate(found[0].is_promotion() ? found[1] : found[0]);
        return unexpected(MoveInputError{
            syntax_error(t + ": promote or not? (" + plain + "+ or " + plain + "=)", line, column),
            MoveInputStatus::PromotionChoice, found});
    }
    return unexpected(MoveInputError{syntax_error(t + ": ambiguous: " + join_coordinates(found), line, column),
                                     MoveInputStatus::Ambiguous, found});
}

Result<std::vector<Move>, ParseError> coordinate_candidates(const Position& pos, std::string_view text, int line,
                                                           int column) {
    auto spec = parse_coordinate_spec(text, line, column);
    if (!spec)
        return unexpected(spec.error());
    return matching_moves(pos, *spec);
}

std::string write_coordinate(Move m) { return to_usi(m); }

std::string join_coordinates(const std::vector<Move>& moves) {
    std::string out;
    for (Move m : moves)
        out += (out.empty() ? "" : ", ") + write_coordinate(m);
    return out;
}

}  // namespace hisha::notation
