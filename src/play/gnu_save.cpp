// GNU Shogi's save file.
#include "gnu_save.h"

#include <cctype>
#include <cstdio>
#include <memory>
#include <vector>

#include "core/text.h"
#include "notation/usi.h"

namespace hisha::play {

using namespace hisha::core;
using core::unexpected;

namespace {

constexpr const char* LETTER = " PLNSBRGK";  // by Hisha's unpromoted PieceType
constexpr const char* MOVES_HEADER = "  move   score depth   nodes   time flags                         capture";
// GNU Shogi's move flags and its numbers of the pieces that can be dropped.
constexpr int GNU_PROMOTE = 0x10, GNU_DROP = 0x20, GNU_CAPTURE = 0x200;

int gnu_piece_number(PieceType pt) {
    switch (unpromote(pt)) {
    case PAWN: return 1;
    case LANCE: return 2;
    case KNIGHT: return 3;
    case SILVER: return 4;
    case GOLD: return 5;
    case BISHOP: return 6;
    case ROOK: return 7;
    default: return 14;
    }
}

char letter_of(PieceType pt) { return LETTER[unpromote(pt)]; }

// A board cell as GNU Shogi writes it: ' ' or '+', then the letter (upper case White) or '-'.
std::string cell(Piece pc) {
    if (pc == NO_PIECE)
        return " -";
    char c = letter_of(type_of(pc));
    return std::string(1, is_promoted(type_of(pc)) ? '+' : ' ') + char(color_of(pc) == WHITE ? c : std::tolower(c));
}

std::unique_ptr<Position> start_of(const Game& game) {
    auto pos = std::make_unique<Position>();
    (void)pos->set(game.start_sfen(), SfenRules::Relaxed);
    return pos;
}

// How often a move left a square or a drop or capture landed on it (GNU's Mvboard, which its
// evaluation reads).
std::vector<int> moved_counts(const Game& game) {
    std::vector<int> n(SQ_NB, 0);
    auto pos = start_of(game);
    for (Move m : game.moves()) {
        if (m.is_drop() || pos->piece_on(m.to()) != NO_PIECE)
            ++n[m.to()];
        if (!m.is_drop())
            ++n[m.from()];
        pos->play(m);
    }
    return n;
}

std::string board_text(const Game& game) {
    const Position& pos = game.position();
    std::vector<int> moved = moved_counts(game);
    std::string out;
    for (int r = 0; r < 9; ++r) {
        out += std::string(1, char('a' + r)) + " ";
        for (int f = 8; f >= 0; --f)
            out += cell(pos.piece_on(make_square(File(f), Rank(r))));
        out += "  ";
        for (int f = 8; f >= 0; --f)
            out += " " + std::to_string(moved[make_square(File(f), Rank(r))]);
        out += "\n";
    }
    out += "\n   9 8 7 6 5 4 3 2 1\n\n   p  l  n  s  g  b  r  k\n";
    for (Color c : {BLACK, WHITE}) {
        out += c == BLACK ? "B" : "W";
        for (PieceType pt : {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK}) {
            char n[8];
            std::snprintf(n, sizeof n, " %2d", pos.hand(c).count(pt));
            out += n;
        }
        out += "  0\n";
    }
    return out;
}

// One move with the piece it captured, as GNU Shogi lists it (score, depth, nodes, time and
// its hash keys are not known here: zero).
std::string move_text(const Position& before, Move m) {
    Piece mover = m.is_drop() ? make_piece(before.side_to_move(), m.dropped_piece()) : before.piece_on(m.from());
    Piece captured = m.is_drop() ? NO_PIECE : before.piece_on(m.to());
    std::string head =
        std::string(1, !m.is_drop() && is_promoted(type_of(mover)) ? '+' : ' ') + letter_of(type_of(mover));
    std::string squares = m.is_drop() ? "*" + square_to_usi(m.to())
                                      : square_to_usi(m.from()) + square_to_usi(m.to()) + (m.is_promotion() ? "+" : "");
    int flags = (captured != NO_PIECE ? GNU_CAPTURE : 0) | (m.is_promotion() ? GNU_PROMOTE : 0)
              | (m.is_drop() ? GNU_DROP | gnu_piece_number(m.dropped_piece()) : 0);
    char line[128];
    std::snprintf(line, sizeof line, "%s%-5s %6d %5d %7d %6d %5d  0x%08x 0x%08x", head.c_str(), squares.c_str(), 0, 0,
                  0, 0, flags, 0u, 0u);
    std::string out = line;
    if (captured != NO_PIECE)
        out += std::string("  ") + letter_of(type_of(captured)) + (color_of(captured) == WHITE ? " White " : " Black ")
             + (is_promoted(type_of(captured)) ? '+' : ' ');
    return out + "\n";
}

// The SFEN rank of a board line ("a  L N S ..."): GNU's upper case White is SFEN's lower case.
Result<std::string, std::string> sfen_rank(std::string_view line) {
    std::string rank_name(line.substr(0, 1));
    if (line.size() < 20)
        return unexpected("rank " + rank_name + " is short");
    std::string rank;
    int empty = 0;
    for (int f = 0; f < 9; ++f) {
        char prefix = line[std::size_t(2 + 2 * f)], c = line[std::size_t(3 + 2 * f)];
        if (c == '-') {
            ++empty;
            continue;
        }
        char up = char(std::toupper(static_cast<unsigned char>(c)));
        if (std::string_view("PLNSGBRK").find(up) == std::string_view::npos || (prefix != ' ' && prefix != '+'))
            return unexpected("rank " + rank_name + ": '" + std::string(1, c) + "' is no piece");
        if (empty)
            rank += std::to_string(empty);
        empty = 0;
        rank += (prefix == '+' ? "+" : "")
              + std::string(1, std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : up);
    }
    return empty ? rank + std::to_string(empty) : rank;
}

// Both hands, SFEN style, from the "B ..." and "W ..." lines (p l n s g b r k).
std::string sfen_hands(const std::vector<std::string_view>& lines) {
    std::string out;
    for (auto l : lines) {
        auto w = text::words(l);
        if (w.size() < 8 || (w[0] != "B" && w[0] != "W"))
            continue;
        for (std::size_t i = 1; i < 8; ++i) {
            int n = std::atoi(w[i].c_str());
            char c = "PLNSGBR"[i - 1];
            if (n > 0)
                out += (n > 1 ? std::to_string(n) : "") + std::string(1, w[0] == "B" ? c : char(std::tolower(c)));
        }
    }
    return out.empty() ? "-" : out;
}

// A move of the list ("P7g7f", "+B5e1a", "B*4e") in USI form.
std::string usi_of(std::string token) {
    if (!token.empty() && token[0] == '+')
        token.erase(0, 1);
    if (token.size() < 3)
        return token;
    return token[1] == '*' ? token : token.substr(1);
}

// The moves from the start position, if they lead to `target` (nullopt otherwise).
std::optional<std::vector<Move>> replay_from_start(const std::vector<std::string>& usi, const Position& target) {
    Position p;
    (void)p.set(START_SFEN);
    std::vector<Move> moves;
    for (const auto& text : usi) {
        auto m = notation::parse_usi_move(p, text);
        if (!m)
            return std::nullopt;
        p.play(*m);
        moves.push_back(*m);
    }
    if (p.sfen(false) != target.sfen(false))
        return std::nullopt;
    return moves;
}

}  // namespace

bool is_gnu_save(std::string_view text) {
    auto lines = text::lines(text.substr(0, 400));
    return lines.size() > 3 && lines[0].rfind("White ", 0) == 0 && lines[0].find(" Black ") != std::string::npos
        && lines[2].rfind("TimeControl", 0) == 0;
}

Result<GnuSave, std::string> read_gnu_save(std::string_view text) {
    if (!is_gnu_save(text))
        return unexpected(std::string("not a GNU Shogi save file"));
    auto lines = text::lines(text);
    auto head = text::words(lines[0]);
    GnuSave save;
    save.force = head.size() > 5 && head[5][0] == 'f';
    bool black_to_move = head.size() > 1 && head[1][0] == 'c';  // the human side moves
    std::string board;
    std::size_t i = 3;
    for (int r = 0; r < 9; ++r) {
        while (i < lines.size() && !(lines[i].size() > 1 && lines[i][0] == char('a' + r) && lines[i][1] == ' '))
            ++i;
        if (i == lines.size())
            return unexpected("no rank " + std::string(1, char('a' + r)));
        auto rank = sfen_rank(lines[i++]);
        if (!rank)
            return unexpected(rank.error());
        board += (r ? "/" : "") + *rank;
    }
    std::vector<std::string> usi;
    bool in_moves = false;
    for (; i < lines.size(); ++i) {
        if (auto words = text::words(lines[i]); in_moves && !words.empty())
            usi.push_back(usi_of(words[0]));
        in_moves |= lines[i].find("move") != std::string::npos && lines[i].find("score") != std::string::npos;
    }
    std::string sfen = board + (black_to_move ? " b " : " w ") + sfen_hands(lines) + " 1";
    Position target;
    if (auto r = target.set(sfen, SfenRules::Relaxed); !r)
        return unexpected("its position: " + r.error().to_string());
    if (auto moves = replay_from_start(usi, target)) {
        for (Move m : *moves)
            save.record.moves.push_back(notation::MoveRecord{m, std::nullopt, {}, {}});
        save.moves_kept = true;
    } else {
        save.record.start_sfen = target.sfen();
    }
    return save;
}

std::string write_gnu_save(const Game& game, bool force) {
    Color human = game.position().side_to_move();
    std::string out = std::string("White ") + (human == WHITE ? "Human   " : "computer") + " Black "
                    + (human == BLACK ? "Human   " : "computer") + " 1 " + (force ? "force" : "") + "\n";
    out += "\nTimeControl 0 Operator Time 0\nBlack Clock 0 Moves 0\nWhite Clock 0 Moves 0\n\n";
    out += board_text(game);
    out += std::string("\n") + MOVES_HEADER + "\n";
    auto pos = start_of(game);
    for (Move m : game.moves()) {
        out += move_text(*pos, m);
        pos->play(m);
    }
    return out;
}

}  // namespace hisha::play
