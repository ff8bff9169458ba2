// BOD diagrams: a line-by-line reader that tolerates the variants real files use (hands with
// full-width, half-width or no separators, 下手/上手 names, 残り for tsume hands) and a writer
// in the layout of Kifu for Windows, which every KIF reader accepts.
#include "bod.h"

#include <array>

#include "japanese.h"

namespace hisha::notation {

using core::Color;
using core::PieceType;

namespace {

// Pieces in a full set, per hand type (for 残り: "all the other pieces").
constexpr std::array<int, core::HAND_TYPE_NB> FULL_SET = {0, 18, 4, 4, 4, 2, 2, 4};

ParseError bod_error(ParseErrorCode code, std::string message, int line, int column) {
    return ParseError{code, "BOD: " + std::move(message), line, column};
}

int column_of(std::string_view line, std::string_view rest) {
    return code_point_count(line.substr(0, line.size() - rest.size())) + 1;
}

std::optional<Color> hand_owner(std::string_view& s) {
    for (std::string_view k : {"先手の持駒", "下手の持駒"})
        if (consume(s, k))
            return core::BLACK;
    for (std::string_view k : {"後手の持駒", "上手の持駒"})
        if (consume(s, k))
            return core::WHITE;
    return std::nullopt;
}

bool is_border(std::string_view s) {
    if (s.size() < 2 || s[0] != '+')
        return false;
    for (char c : s)
        if (c != '+' && c != '-')
            return false;
    return true;
}

std::string hand_text(core::Hand h) {
    std::string s;
    for (PieceType pt : core::HAND_ORDER) {
        int n = h.count(pt);
        if (n == 0)
            continue;
        if (!s.empty())
            s += "　";
        s += piece_char(pt);
        if (n > 1)
            s += kanji_number(n);
    }
    return s.empty() ? "なし" : s;
}

}  // namespace

BodReader::BodReader() {
    for (auto& p : board_)
        p = core::NO_PIECE;
}

Result<bool, ParseError> BodReader::feed(std::string_view line, int line_no) {
    std::string_view s = trim_spaces(line);
    if (!s.empty() && s[0] == '|')
        return feed_row(line, line_no);
    if (is_border(s))
        return true;
    std::string_view t = s;
    if (auto c = hand_owner(t)) {
        if (!consume(t, "：") && !consume(t, ":"))
            return false;
        if (first_line_ == 0)
            first_line_ = line_no;
        return feed_hand(t, *c, line_no, column_of(line, t));
    }
    for (std::string_view k : {"先手番", "下手番"})
        if (s.substr(0, k.size()) == k) {
            side_ = core::BLACK;
            return true;
        }
    for (std::string_view k : {"後手番", "上手番"})
        if (s.substr(0, k.size()) == k) {
            side_ = core::WHITE;
            return true;
        }
    t = s;
    if (consume(t, "手数＝") || consume(t, "手数=")) {
        auto n = read_number(t);
        if (!n || *n > 10000)
            return core::unexpected(
                bod_error(ParseErrorCode::BadMoveNumber, "bad move number", line_no, column_of(line, t)));
        move_number_ = *n + 1;
        return true;
    }
    // The file-number line above the board: "  ９ ８ ７ ６ ５ ４ ３ ２ １".
    if (s.substr(0, 3) == "９" && s.size() >= 3 && s.substr(s.size() - 3) == "１")
        return true;
    return false;
}

Result<bool, ParseError> BodReader::feed_row(std::string_view line, int line_no) {
    std::string_view s = skip_spaces(line);
    consume(s, "|");
    if (first_line_ == 0)
        first_line_ = line_no;
    Color colors[9];
    std::optional<PieceType> types[9];
    for (int i = 0; i < 9; ++i) {
        std::string_view cell = s;
        char32_t mark = pop_code_point(s);
        if (mark != ' ' && mark != 'v' && mark != 'V' && mark != 0x3000)
            return core::unexpected(bod_error(ParseErrorCode::BadBoard, "a square must start with ' ' or 'v'", line_no,
                                              column_of(line, cell)));
        colors[i] = mark == 'v' || mark == 'V' ? core::WHITE : core::BLACK;
        std::string_view at = s;
        if (consume(s, "・"))
            continue;
        types[i] = read_piece(s);
        if (!types[i] || code_point_count(at.substr(0, at.size() - s.size())) != 1)
            return core::unexpected(
                bod_error(ParseErrorCode::BadBoard, "unknown piece on the board", line_no, column_of(line, at)));
    }
    if (!consume(s, "|"))
        return core::unexpected(bod_error(ParseErrorCode::BadBoard, "a row must hold 9 squares and end with '|'",
                                          line_no, column_of(line, s)));
    int rank = rows_ + 1;
    std::string_view r = skip_spaces(s);
    if (auto n = read_digit(r))
        rank = *n;
    if (rank > 9)
        return core::unexpected(bod_error(ParseErrorCode::BadBoard, "more than 9 rows", line_no, column_of(line, s)));
    if (rank_seen_[rank - 1])
        return core::unexpected(bod_error(ParseErrorCode::BadBoard, "rank " + std::to_string(rank) + " given twice",
                                          line_no, column_of(line, s)));
    rank_seen_[rank - 1] = true;
    ++rows_;
    last_row_line_ = line_no;
    for (int i = 0; i < 9; ++i)
        board_[square_of(9 - i, rank)] = types[i] ? core::make_piece(colors[i], *types[i]) : core::NO_PIECE;
    return true;
}

Result<bool, ParseError> BodReader::feed_hand(std::string_view text, Color c, int line_no, int column) {
    ++hand_lines_;
    std::string_view s = text;
    while (true) {
        s = skip_spaces(s);
        while (consume(s, "、") || consume(s, ","))
            s = skip_spaces(s);
        if (s.empty())
            break;
        if (consume(s, "なし"))
            continue;
        int col = column + code_point_count(text.substr(0, text.size() - s.size()));
        if (consume(s, "残りの駒全部") || consume(s, "残り全部") || consume(s, "残り")) {
            for (int pt = core::PAWN; pt <= core::GOLD; ++pt)
                hands_[c].set(PieceType(pt), 0);
            rest_to_ = c;
            continue;
        }
        auto pt = read_piece(s);
        if (!pt || *pt > core::GOLD)
            return core::unexpected(bod_error(ParseErrorCode::BadHand, "unknown piece in hand", line_no, col));
        int n = read_number(s).value_or(1);
        if (n < 1 || hands_[c].count(*pt) + n > core::Hand::MAX[*pt])
            return core::unexpected(bod_error(ParseErrorCode::BadHand,
                                              "too many " + std::string(piece_kanji(*pt)) + " in hand", line_no, col));
        hands_[c].add(*pt, n);
    }
    return true;
}

Result<std::string, ParseError> BodReader::sfen(Color default_side) const {
    if (rows_ != 9)
        return core::unexpected(bod_error(ParseErrorCode::BadBoard,
                                          "the board has " + std::to_string(rows_) + " rows, not 9",
                                          rows_ ? last_row_line_ : first_line_, 1));
    core::Hand hands[core::COLOR_NB] = {hands_[0], hands_[1]};
    if (rest_to_) {
        int left[core::HAND_TYPE_NB];
        for (int pt = core::PAWN; pt <= core::GOLD; ++pt)
            left[pt] = FULL_SET[std::size_t(pt)] - hands[~*rest_to_].count(PieceType(pt));
        for (core::Piece pc : board_)
            if (pc && core::type_of(pc) != core::KING)
                --left[core::unpromote(core::type_of(pc))];
        for (int pt = core::PAWN; pt <= core::GOLD; ++pt)
            hands[*rest_to_].set(PieceType(pt), std::max(0, left[pt]));
    }
    std::string out = core::board_sfen(board_) + (side_.value_or(default_side) == core::BLACK ? " b " : " w ")
                    + core::hands_sfen(hands) + " " + std::to_string(move_number_);
    core::Position pos;
    if (auto r = pos.set(out, core::SfenRules::Relaxed); !r)
        return core::unexpected(bod_error(ParseErrorCode::IllegalPosition, r.error().message, first_line_, 1));
    return out;
}

Result<std::string, ParseError> read_bod(std::string_view text) {
    BodReader reader;
    int line_no = 0;
    while (!text.empty()) {
        std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        ++line_no;
        while (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        auto r = reader.feed(line, line_no);
        if (!r)
            return core::unexpected(r.error());
    }
    if (!reader.seen())
        return core::unexpected(ParseError{ParseErrorCode::Empty, "BOD: no board diagram", 0, 0});
    return reader.sfen(core::BLACK);
}

std::string write_bod(const core::Position& pos) {
    std::string s = "後手の持駒：" + hand_text(pos.hand(core::WHITE)) + "\n";
    s += "  ９ ８ ７ ６ ５ ４ ３ ２ １\n";
    s += "+---------------------------+\n";
    for (int rank = 1; rank <= 9; ++rank) {
        s += "|";
        for (int file = 9; file >= 1; --file) {
            core::Piece pc = pos.piece_on(square_of(file, rank));
            if (!pc)
                s += " ・";
            else {
                s += core::color_of(pc) == core::WHITE ? 'v' : ' ';
                s += piece_char(core::type_of(pc));
            }
        }
        s += '|';
        s += kanji_digit(rank);
        s += '\n';
    }
    s += "+---------------------------+\n";
    s += "先手の持駒：" + hand_text(pos.hand(core::BLACK)) + "\n";
    if (pos.game_ply() > 1)
        s += "手数＝" + std::to_string(pos.game_ply() - 1) + "\n";
    s += pos.side_to_move() == core::BLACK ? "先手番\n" : "後手番\n";
    return s;
}

Result<std::string, ParseError> write_bod(std::string_view sfen) {
    core::Position pos;
    if (auto r = pos.set(sfen, core::SfenRules::Relaxed); !r)
        return core::unexpected(r.error());
    return write_bod(pos);
}

}  // namespace hisha::notation
