// Staged move ordering.
#include "movepick.h"

#include "see.h"

namespace hisha::engine {

using namespace core;

namespace {
bool is_capture(const Position& pos, Move m) { return !m.is_drop() && pos.piece_on(m.to()) != NO_PIECE; }
}  // namespace

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h, const Move* killers, Move counter,
                       const PieceToHistory* const* cont)
    : pos_(pos), h_(h), cont_(cont), tt_move_(tt_move) {
    stage_ = pos.in_check() ? EVASION_TT : MAIN_TT;
    if (!(tt_move_ && pos.pseudo_legal(tt_move_)))
        tt_move_ = Move::none(), ++stage_;
    for (Move m : {killers[0], killers[1], counter})
        if (m && m != tt_move_ && !is_refutation(m) && !is_capture(pos, m) && !m.is_promotion())
            refutations_[refutation_count_++] = m;
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h, bool checks)
    : pos_(pos), h_(h), tt_move_(tt_move), checks_(checks) {
    stage_ = pos.in_check() ? EVASION_TT : QSEARCH_TT;
    bool ok = tt_move_ && (pos.in_check() || is_capture(pos, tt_move_) || tt_move_.is_promotion())
           && pos.pseudo_legal(tt_move_);
    if (!ok)
        tt_move_ = Move::none(), ++stage_;
}

bool MovePicker::is_refutation(Move m) const {
    for (int i = 0; i < refutation_count_; ++i)
        if (refutations_[i] == m)
            return true;
    return false;
}

void MovePicker::score_captures() {
    for (ScoredMove* it = cur_; it != end_; ++it) {
        Move m = it->move;
        PieceType captured = type_of(pos_.piece_on(m.to()));
        it->score = 8 * see_value(captured) + h_.capture[m.piece_after()][m.to()][captured]
                  + (m.is_promotion() ? 4 * (see_value(type_of(m.piece_after())) - see_value(m.moved_type())) : 0);
    }
}

void MovePicker::score_quiets() {
    Color us = pos_.side_to_move();
    // The squares from which each of our piece types would attack the enemy king: a quiet move
    // (or drop) that lands there gives check, and is tried early unless it loses material.
    Bitboard check_squares[PIECE_TYPE_NB];
    Square ksq = pos_.king_square(~us);
    if (cont_ && ksq != SQ_NONE)
        for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
            check_squares[pt] =
                pt == KING ? Bitboard() : attacks_of(make_piece(~us, PieceType(pt)), ksq, pos_.pieces());
    for (ScoredMove* it = cur_; it != end_; ++it) {
        Move m = it->move;
        int score = 2 * h_.main[us][from_index(m)][m.to()];
        if (cont_) {
            Piece pc = m.piece_after();
            score += 2 * (*cont_[0])[pc][m.to()] + (*cont_[1])[pc][m.to()] + (*cont_[2])[pc][m.to()];
            if (ksq != SQ_NONE && check_squares[type_of(pc)].test(m.to()) && see_ge(pos_, m, -75))
                score += 16384;
        }
        it->score = score;
    }
}

void MovePicker::score_evasions() {
    Color us = pos_.side_to_move();
    for (ScoredMove* it = cur_; it != end_; ++it) {
        Move m = it->move;
        if (is_capture(pos_, m))
            it->score = (1 << 28) + see_value(type_of(pos_.piece_on(m.to()))) * 16
                      - (m.is_drop() ? 0 : see_value(m.moved_type()));
        else
            it->score = h_.main[us][from_index(m)][m.to()];
    }
}

Move MovePicker::pick_best() {
    ScoredMove* best = cur_;
    for (ScoredMove* it = cur_ + 1; it != end_; ++it)
        if (it->score > best->score)
            best = it;
    std::swap(*best, *cur_);
    return (cur_++)->move;
}

Move MovePicker::best_but_tt() {
    while (cur_ != end_)
        if (Move m = pick_best(); m != tt_move_)
            return m;
    return Move::none();
}

Move MovePicker::next_move(bool skip_quiets) {
    while (true) {
        switch (stage_) {
        case MAIN_TT:
        case EVASION_TT:
        case QSEARCH_TT: ++stage_; return tt_move_;

        case CAPTURE_INIT:
        case QCAPTURE_INIT:
            cur_ = end_bad_ = moves_;
            end_ = generate<CAPTURES>(pos_, moves_);
            score_captures();
            ++stage_;
            break;

        case GOOD_CAPTURE:
            while (cur_ != end_) {
                Move m = pick_best();
                if (m == tt_move_)
                    continue;
                if (see_ge(pos_, m, 0))
                    return m;
                (end_bad_++)->move = m;  // keep for the last stage
            }
            ++stage_;
            break;

        case REFUTATION:
            while (refutation_index_ < refutation_count_) {
                Move m = refutations_[refutation_index_++];
                if (pos_.pseudo_legal(m))
                    return m;
            }
            ++stage_;
            break;

        case QUIET_INIT:
            if (!skip_quiets) {
                cur_ = end_bad_;
                end_ = generate<QUIETS>(pos_, cur_);
                score_quiets();
            } else
                cur_ = end_ = end_bad_;
            ++stage_;
            break;

        case QUIET:
            while (!skip_quiets && cur_ != end_) {
                Move m = pick_best();
                if (m != tt_move_ && !is_refutation(m))
                    return m;
            }
            cur_ = moves_;  // bad captures were kept at the front
            end_ = end_bad_;
            ++stage_;
            break;

        case BAD_CAPTURE:
            while (cur_ != end_) {
                Move m = (cur_++)->move;
                if (m != tt_move_)
                    return m;
            }
            return Move::none();

        case EVASION_INIT:
            cur_ = moves_;
            end_ = generate<EVASIONS>(pos_, moves_);
            score_evasions();
            ++stage_;
            break;

        case EVASION: return best_but_tt();

        case QCAPTURE:
            if (Move m = best_but_tt(); m || !checks_)
                return m;
            ++stage_;
            break;

        case QCHECK_INIT:
            cur_ = moves_;
            end_ = generate<QUIET_CHECKS>(pos_, moves_);
            score_quiets();
            ++stage_;
            break;

        case QCHECK: return best_but_tt();
        }
    }
}

}  // namespace hisha::engine
