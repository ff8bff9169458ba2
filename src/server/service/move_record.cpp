// The typed move record: the codec of the stored rows, the spellings and the one replay.
#include "server/service/move_record.h"

#include <cctype>

#include "core/handicap.h"
#include "core/movegen.h"
#include "notation/coordinate.h"
#include "notation/csa.h"
#include "notation/usi.h"
#include "notation/western.h"

namespace hisha::server::service {

using core::BLACK;
using core::WHITE;

namespace {

constexpr std::string_view HANDICAP_PREFIX = "HANDICAP:";

void reset_to(core::Game& game, const std::string& sfen) {
    if (auto h = core::handicap_from_sfen(sfen))
        game.reset(*h);
    else
        (void)game.reset(sfen);
}

const char* color_name(core::Color c) { return c == BLACK ? "Black" : "White"; }

MoveRecord special(MoveKind kind, core::Color mover) {
    MoveRecord r;
    r.kind = kind;
    r.mover = mover;
    return r;
}

}  // namespace

// --- the codec

std::string row_text(const MoveRecord& r) {
    switch (r.kind) {
    case MoveKind::Board: return core::to_usi(r.move);
    case MoveKind::Handicap: return r.text;  // canonical, made by read_handicap()
    case MoveKind::Resign: return r.mover == BLACK ? "RESIGN:B" : "RESIGN:W";
    case MoveKind::Declare: return "DECLARE";
    }
    return {};
}

MoveRow to_row(const MoveRecord& r) { return {r.ply, row_text(r), r.spent_ms, r.at, r.forced, r.locked, r.comment}; }

bool is_handicap_text(std::string_view t) {
    return t.starts_with(HANDICAP_PREFIX) || t.find('@') != std::string_view::npos;
}

Reply<MoveRecord> read_handicap(std::string_view text, const core::Position& before) {
    std::string_view t = text;
    if (t.starts_with(HANDICAP_PREFIX) || t.starts_with("handicap:"))
        t.remove_prefix(HANDICAP_PREFIX.size());
    if (before.sfen(false) != core::Position().sfen(false))
        return fail("a handicap can only be the first move of an even game");
    core::Piece board[core::SQ_NB];
    for (int s = 0; s < core::SQ_NB; ++s)
        board[s] = before.piece_on(core::Square(s));
    MoveRecord r = special(MoveKind::Handicap, BLACK);
    r.text = std::string(HANDICAP_PREFIX);
    bool first = true;
    while (!t.empty()) {
        auto comma = t.find(',');
        std::string_view item = t.substr(0, comma);
        if (item.size() != 4 || item[1] != '@')
            return fail("bad handicap item '" + std::string(item) + "' (use L@1a,R@8b)");
        core::PieceType pt = notation::piece_from_letter(char(std::toupper(static_cast<unsigned char>(item[0]))));
        int file = item[2] - '1', rank = std::tolower(static_cast<unsigned char>(item[3])) - 'a';
        if (pt == core::NO_PIECE_TYPE || pt == core::KING || file < 0 || file > 8 || rank < 0 || rank > 8)
            return fail("bad handicap item '" + std::string(item) + "'");
        core::Square s = core::make_square(core::File(file), core::Rank(rank));
        if (board[s] != core::make_piece(WHITE, pt))
            return fail("there is no White " + notation::piece_name(pt) + " on " + core::square_to_usi(s));
        board[s] = core::NO_PIECE;
        r.text += (first ? "" : ",") + std::string(1, notation::piece_letter(pt)) + "@" + core::square_to_usi(s);
        first = false;
        if (comma == std::string_view::npos)
            break;
        t.remove_prefix(comma + 1);
    }
    if (first)
        return fail("no handicap pieces given");
    r.start_sfen = core::board_sfen(board) + " w - 1";
    return r;
}

Reply<MoveRecord> decode_row(const MoveRow& row, const core::Position& before) {
    const std::string& t = row.text;
    Reply<MoveRecord> r = fail("");
    if (t.starts_with(HANDICAP_PREFIX)) {
        r = read_handicap(t, before);
    } else if (t == "RESIGN:B" || t == "RESIGN:W") {
        r = special(MoveKind::Resign, t.back() == 'B' ? BLACK : WHITE);
    } else if (t == "DECLARE") {
        r = special(MoveKind::Declare, before.side_to_move());
    } else {
        auto m = notation::parse_usi_move(before, t);
        if (!m)
            return fail("bad move " + t + " at ply " + std::to_string(row.ply));
        MoveRecord b;
        b.move = *m;
        b.mover = before.side_to_move();
        r = b;
    }
    if (!r)
        return r;
    r->ply = row.ply;
    r->spent_ms = row.spent_ms;
    r->at = row.at;
    r->forced = row.forced;
    r->locked = row.locked;
    r->comment = row.comment;
    return r;
}

// --- spellings

void spell(MoveRecord& r, const core::Position& before, core::Move previous) {
    r.text = row_text(r);
    switch (r.kind) {
    case MoveKind::Board:
        r.western = notation::write_western(before, r.move);
        r.csa = notation::format_csa_move(r.move);
        r.ja = ki2_spelling(before, r.move, previous);
        break;
    case MoveKind::Handicap: r.western = r.text; break;
    case MoveKind::Resign:
        r.western = "RESIGN";
        r.csa = "%TORYO";
        break;
    case MoveKind::Declare:
        r.western = "DECLARE";
        r.csa = "%KACHI";
        break;
    }
}

std::vector<std::string> check_notices(const core::Position& pos) {
    std::vector<std::string> out;
    if (!pos.in_check())
        return out;
    core::Color c = pos.side_to_move();
    core::Bitboard checkers = pos.checkers();
    while (checkers.any()) {
        core::Square s = checkers.pop_lsb();
        out.push_back(std::string(color_name(c)) + "'s king is checked by " + core::square_to_usi(s) + ".");
    }
    core::MoveList<core::LEGAL, true> moves(pos);
    for (auto& sm : moves)
        if (!sm.move.is_drop() && sm.move.from() == pos.king_square(c)) {
            out.push_back(std::string(color_name(c)) + "'s king could escape to the square "
                          + core::square_to_usi(sm.move.to()) + ".");
            break;
        }
    if (moves.size() == 0)
        out.push_back(std::string(color_name(c)) + "'s king is checkmated.");
    return out;
}

// --- replay

bool apply(core::Game& game, MoveRecord& r) {
    switch (r.kind) {
    case MoveKind::Handicap: reset_to(game, r.start_sfen); break;
    case MoveKind::Resign: game.resign(r.mover); break;
    case MoveKind::Declare: (void)game.declare(); break;
    case MoveKind::Board:
        if (!game.play(r.move))
            return false;
        r.notices = check_notices(game.position());
        break;
    }
    return true;
}

Replayed replay(const GameRow& row, core::Game& game, int plies) {
    Replayed out;
    if (auto r = game.reset(row.start_sfen); !r) {
        out.error = "bad start position: " + r.error().message;
        return out;
    }
    std::size_t n = plies < 0 ? row.moves.size() : std::min(row.moves.size(), std::size_t(plies));
    core::Move previous = core::Move::none();
    for (std::size_t i = 0; i < n; ++i) {
        MoveRow stored = row.moves[i];
        stored.ply = int(i);
        auto rec = decode_row(stored, game.position());
        if (!rec) {
            out.error = stored.text.starts_with(HANDICAP_PREFIX) ? "bad handicap move at ply " + std::to_string(i)
                                                                 : rec.error();
            return out;
        }
        if (rec->kind == MoveKind::Handicap && i != 0) {
            out.error = "bad handicap move at ply " + std::to_string(i);
            return out;
        }
        spell(*rec, game.position(), previous);
        if (!apply(game, *rec)) {
            out.error = "illegal move " + stored.text + " at ply " + std::to_string(i);
            return out;
        }
        previous = rec->board() ? rec->move : core::Move::none();
        out.log.push_back(std::move(*rec));
    }
    return out;
}

}  // namespace hisha::server::service
