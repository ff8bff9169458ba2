// Position: SFEN parsing and output, do/undo, legality of single moves, repetition lookup.
#include "position.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "assert.h"
#include "text.h"
#include "zobrist.h"

namespace hisha::core {

namespace {
constexpr std::string_view PIECE_LETTERS = " PLNSBRGK";  // index = PieceType for PAWN..KING

PieceType piece_type_from_letter(char ch) {
    char up = ch >= 'a' && ch <= 'z' ? char(ch - 32) : ch;
    auto pos = PIECE_LETTERS.find(up);
    return pos == std::string_view::npos || pos == 0 ? NO_PIECE_TYPE : PieceType(pos);
}

char piece_letter(Piece pc) {
    char ch = PIECE_LETTERS[unpromote(type_of(pc))];
    return color_of(pc) == WHITE ? char(ch + 32) : ch;
}

ParseError sfen_error(ParseErrorCode code, std::string msg, int column) {
    return ParseError{code, std::move(msg), 0, column};
}

const char* color_name(Color c) { return c == BLACK ? "Black" : "White"; }

// Field 1 of an SFEN: the board, rank a first, each rank from file 9 to file 1. `column_of`
// receives the column of each piece (for the messages of later checks).
Result<void, ParseError> parse_board(std::string_view text, int col0, Piece (&board)[SQ_NB], int (&column_of)[SQ_NB]) {
    int rank = 0, file = 8;  // file index counts down
    bool promoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char ch = text[i];
        int col = col0 + int(i);
        if (ch == '/') {
            if (promoted)
                return unexpected(sfen_error(ParseErrorCode::BadBoard, "board: '+' not followed by a piece", col));
            if (file != -1)
                return unexpected(sfen_error(ParseErrorCode::BadBoard,
                                             "board: rank " + std::to_string(rank + 1) + " has "
                                                 + std::to_string(8 - file) + " squares, expected 9",
                                             col));
            if (++rank > 8)
                return unexpected(sfen_error(ParseErrorCode::BadBoard, "board: more than 9 ranks", col));
            file = 8;
        } else if (ch >= '1' && ch <= '9') {
            if (promoted)
                return unexpected(sfen_error(ParseErrorCode::BadBoard, "board: '+' not followed by a piece", col));
            file -= ch - '0';
            if (file < -1)
                return unexpected(sfen_error(ParseErrorCode::BadBoard,
                                             "board: rank " + std::to_string(rank + 1) + " has more than 9 squares",
                                             col));
        } else if (ch == '+') {
            if (promoted)
                return unexpected(sfen_error(ParseErrorCode::BadBoard, "board: '++'", col));
            promoted = true;
        } else {
            PieceType pt = piece_type_from_letter(ch);
            if (pt == NO_PIECE_TYPE)
                return unexpected(
                    sfen_error(ParseErrorCode::BadBoard, std::string("board: unknown piece letter '") + ch + "'", col));
            if (promoted && !can_promote(pt))
                return unexpected(
                    sfen_error(ParseErrorCode::BadBoard, std::string("board: '") + ch + "' cannot be promoted", col));
            if (file < 0)
                return unexpected(sfen_error(ParseErrorCode::BadBoard,
                                             "board: rank " + std::to_string(rank + 1) + " has more than 9 squares",
                                             col));
            Color c = ch >= 'a' ? WHITE : BLACK;
            Square s = make_square(File(file), Rank(rank));
            board[s] = make_piece(c, promoted ? promote(pt) : pt);
            column_of[s] = promoted ? col - 1 : col;
            promoted = false;
            --file;
        }
    }
    int end_col = col0 + int(text.size());
    if (promoted)
        return unexpected(sfen_error(ParseErrorCode::BadBoard, "board: '+' not followed by a piece", end_col));
    if (file != -1)
        return unexpected(sfen_error(ParseErrorCode::BadBoard,
                                     "board: rank " + std::to_string(rank + 1) + " has " + std::to_string(8 - file)
                                         + " squares, expected 9",
                                     end_col));
    if (rank != 8)
        return unexpected(
            sfen_error(ParseErrorCode::BadBoard, "board: " + std::to_string(rank + 1) + " ranks, expected 9", end_col));
    return {};
}

// Field 2: the side to move.
Result<Color, ParseError> parse_side(std::string_view text, int col) {
    if (text == "b")
        return BLACK;
    if (text == "w")
        return WHITE;
    return unexpected(sfen_error(ParseErrorCode::BadSideToMove,
                                 "side to move must be 'b' or 'w', found '" + std::string(text) + "'", col));
}

// Field 4: the move number.
Result<int, ParseError> parse_move_number(std::string_view text, int col) {
    long v = 0;
    bool ok = !text.empty() && text.size() <= 9;
    for (char ch : text)
        ok = ok && ch >= '0' && ch <= '9' && ((v = v * 10 + (ch - '0')), true);
    if (!ok || v < 1)
        return unexpected(sfen_error(ParseErrorCode::BadMoveNumber,
                                     "move number must be a positive integer, found '" + std::string(text) + "'", col));
    return int(v);
}

// Field 3: pieces in hand, in any order; "-" for none.
Result<void, ParseError> parse_hands(std::string_view text, int col0, SfenRules rules, Hand (&hands)[COLOR_NB]) {
    if (text != "-") {
        bool seen[COLOR_NB][HAND_TYPE_NB] = {};
        for (std::size_t i = 0; i < text.size();) {
            int col = col0 + int(i);
            int count = 1;
            if (text[i] >= '0' && text[i] <= '9') {
                count = 0;
                while (i < text.size() && text[i] >= '0' && text[i] <= '9' && count < 100)
                    count = count * 10 + (text[i++] - '0');
                if (i >= text.size())
                    return unexpected(sfen_error(ParseErrorCode::BadHand, "hand: count without a piece", col));
                if (count < 1)
                    return unexpected(sfen_error(ParseErrorCode::BadHand, "hand: a count must be at least 1", col));
            }
            char ch = text[i];
            PieceType pt = piece_type_from_letter(ch);
            if (pt == NO_PIECE_TYPE || pt == KING)
                return unexpected(sfen_error(ParseErrorCode::BadHand,
                                             std::string("hand: '") + ch + "' is not a piece that can be held",
                                             col0 + int(i)));
            Color c = ch >= 'a' ? WHITE : BLACK;
            if (seen[c][pt])
                return unexpected(sfen_error(ParseErrorCode::BadHand, std::string("hand: '") + ch + "' appears twice",
                                             col0 + int(i)));
            seen[c][pt] = true;
            int limit = rules == SfenRules::Strict ? Hand::MAX[pt] : int(Hand::MASK[pt]);
            if (count > limit)
                return unexpected(sfen_error(ParseErrorCode::BadHand,
                                             "hand: " + std::to_string(count) + " " + ch + " is more than the "
                                                 + std::to_string(limit) + " that exist",
                                             col));
            hands[c].set(pt, count);
            ++i;
        }
    }
    return {};
}
}  // namespace

const char* describe(IllegalMove reason) {
    switch (reason) {
    case IllegalMove::NotAMove: return "not a move";
    case IllegalMove::NotYourPiece: return "no piece of the side to move on that square";
    case IllegalMove::NotInHand: return "that piece is not in hand";
    case IllegalMove::Occupied: return "the square is occupied";
    case IllegalMove::CannotReach: return "the piece cannot move there";
    case IllegalMove::CannotPromote: return "that move cannot promote";
    case IllegalMove::DeadPiece: return "the piece would have no legal move (it must promote)";
    case IllegalMove::TwoPawns: return "two pawns on the file";
    case IllegalMove::DropPawnMate: return "a pawn drop may not give checkmate";
    case IllegalMove::IgnoredCheck: return "the king is in check";
    case IllegalMove::SelfCheck: return "the move leaves the king in check";
    case IllegalMove::GameOver: return "the game is over";
    }
    return "illegal move";
}

Position::Position() { set_startpos(); }

void Position::clear() {
    std::fill(std::begin(board_), std::end(board_), NO_PIECE);
    for (auto& b : by_color_)
        b = Bitboard();
    for (auto& b : by_type_)
        b = Bitboard();
    hand_[BLACK] = hand_[WHITE] = Hand();
    king_sq_[BLACK] = king_sq_[WHITE] = SQ_NONE;
    side_ = BLACK;
    game_ply_ = 1;
    root_ = StateInfo{};
    history_.clear();
    st_ = &root_;
}

void Position::set_startpos() {
    auto r = set(START_SFEN);
    HISHA_ASSERT(1, r.has_value());
}

void Position::put_piece(Piece pc, Square s) {
    board_[s] = pc;
    by_color_[color_of(pc)] |= s;
    by_type_[type_of(pc)] |= s;
}

void Position::remove_piece(Piece pc, Square s) {
    board_[s] = NO_PIECE;
    by_color_[color_of(pc)] ^= s;
    by_type_[type_of(pc)] ^= s;
}

// --- SFEN

Result<void, ParseError> Position::set(std::string_view sfen, SfenRules rules) {
    std::vector<text::Word> fields = text::words_with_columns(sfen, " \t");
    if (fields.empty())
        return unexpected(sfen_error(ParseErrorCode::Empty, "empty SFEN", 0));
    if (fields.size() == 1 && fields[0].text == "startpos")
        return set(START_SFEN, rules);
    if (fields[0].text == "sfen")
        fields.erase(fields.begin());
    if (fields.size() < 3) {
        const char* what = fields.size() < 2 ? "side to move" : "pieces in hand";
        return unexpected(
            sfen_error(ParseErrorCode::MissingField, std::string("missing field: ") + what, int(sfen.size()) + 1));
    }
    if (fields.size() > 4)
        return unexpected(sfen_error(ParseErrorCode::TooManyFields,
                                     "unexpected text after the move number: '" + std::string(fields[4].text) + "'",
                                     fields[4].column));

    Piece board[SQ_NB] = {};
    int column_of[SQ_NB] = {};
    Hand hands[COLOR_NB];
    if (auto r = parse_board(fields[0].text, fields[0].column, board, column_of); !r)
        return unexpected(r.error());
    auto side_r = parse_side(fields[1].text, fields[1].column);
    if (!side_r)
        return unexpected(side_r.error());
    Color side = *side_r;
    if (auto r = parse_hands(fields[2].text, fields[2].column, rules, hands); !r)
        return unexpected(r.error());
    int ply = 1;  // the move number is optional
    if (fields.size() == 4) {
        auto n = parse_move_number(fields[3].text, fields[3].column);
        if (!n)
            return unexpected(n.error());
        ply = *n;
    }

    // Build into a scratch position first so that *this is unchanged on error.
    auto tmp = std::make_unique<Position>(Position::Uninitialised{});
    tmp->clear();
    for (Square s = SQ_11; s < SQ_NB; ++s)
        if (board[s]) {
            if (type_of(board[s]) == KING) {
                Color c = color_of(board[s]);
                if (tmp->king_sq_[c] != SQ_NONE)
                    return unexpected(sfen_error(ParseErrorCode::IllegalPosition,
                                                 std::string("two ") + color_name(c) + " kings", column_of[s]));
                tmp->king_sq_[c] = s;
            }
            tmp->put_piece(board[s], s);
        }
    tmp->hand_[BLACK] = hands[BLACK];
    tmp->hand_[WHITE] = hands[WHITE];
    tmp->side_ = side;
    tmp->game_ply_ = ply;
    if (auto v = tmp->validate(rules); !v) {
        ParseError e = v.error();
        Square s = Square(e.column);  // validate() reports a square (or SQ_NONE) in column
        e.column = is_ok(s) ? column_of[s] : fields[0].column;
        return unexpected(e);
    }

    // Commit.
    clear();
    std::copy(std::begin(tmp->board_), std::end(tmp->board_), board_);
    std::copy(std::begin(tmp->by_color_), std::end(tmp->by_color_), by_color_);
    std::copy(std::begin(tmp->by_type_), std::end(tmp->by_type_), by_type_);
    hand_[BLACK] = hands[BLACK];
    hand_[WHITE] = hands[WHITE];
    king_sq_[BLACK] = tmp->king_sq_[BLACK];
    king_sq_[WHITE] = tmp->king_sq_[WHITE];
    side_ = side;
    game_ply_ = ply;
    root_.board_key = compute_board_key();
    root_.hand_key = compute_hand_key();
    if (king_sq_[side_] != SQ_NONE)
        root_.checkers = attackers_to(~side_, king_sq_[side_]);
    update_blockers(BLACK);
    update_blockers(WHITE);
    HISHA_ASSERT(3, is_consistent());
    return {};
}

// Rules a position must satisfy to be set up. On error, `column` holds the offending square
// (or SQ_NONE); set() turns it into a column of the SFEN.
Result<void, ParseError> Position::validate(SfenRules rules) const {
    auto err = [](std::string msg, Square s) {
        return unexpected(ParseError{ParseErrorCode::IllegalPosition, std::move(msg), 0, int(s)});
    };
    int total[HAND_TYPE_NB + 1] = {};
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        Piece pc = board_[s];
        if (!pc)
            continue;
        PieceType pt = type_of(pc);
        Color c = color_of(pc);
        Rank rr = relative_rank(c, rank_of(s));
        if ((pt == PAWN || pt == LANCE) && rr == RANK_1)
            return err(std::string(color_name(c)) + (pt == PAWN ? " pawn" : " lance") + " on " + square_to_usi(s)
                           + " could never move",
                       s);
        if (pt == KNIGHT && rr <= RANK_2)
            return err(std::string(color_name(c)) + " knight on " + square_to_usi(s) + " could never move", s);
        total[unpromote(pt) == KING ? HAND_TYPE_NB : unpromote(pt)]++;
    }
    for (Color c : {BLACK, WHITE})
        for (int pt = PAWN; pt <= GOLD; ++pt)
            total[pt] += hand_[c].count(PieceType(pt));
    static constexpr const char* NAMES[] = {"", "pawns", "lances", "knights", "silvers", "bishops", "rooks", "golds"};
    for (int pt = PAWN; pt <= GOLD; ++pt) {
        int limit = rules == SfenRules::Strict ? Hand::MAX[pt] : int(Hand::MASK[pt]);
        if (total[pt] > limit)
            return err("more pieces than exist: " + std::to_string(total[pt]) + " " + NAMES[pt] + " (at most "
                           + std::to_string(limit) + ")",
                       SQ_NONE);
    }
    // Relaxed positions may mix pieces freely but not hold more than a set: that bounds the
    // number of moves (MAX_MOVES).
    int pieces_total = 0;
    for (int pt = PAWN; pt <= HAND_TYPE_NB; ++pt)
        pieces_total += total[pt];
    if (pieces_total > 40)
        return err("more pieces than a set has: " + std::to_string(pieces_total) + " (at most 40)", SQ_NONE);
    for (Color c : {BLACK, WHITE})
        for (File f = FILE_1; f < FILE_NB; ++f) {
            Bitboard p = pieces(c, PAWN) & FILE_BB[f];
            if (p.more_than_one())
                return err(std::string("two unpromoted ") + color_name(c) + " pawns on file " + std::to_string(f + 1),
                           p.lsb());
        }
    Square k = king_sq_[~side_];
    if (k != SQ_NONE && attackers_to(side_, k).any())
        return err(std::string(color_name(~side_)) + "'s king is in check but it is " + color_name(side_) + "'s move",
                   k);
    return {};
}

std::string board_sfen(const Piece (&board)[SQ_NB]) {
    std::string s;
    for (int r = 0; r < 9; ++r) {
        int empty = 0;
        for (int f = 8; f >= 0; --f) {
            Piece pc = board[make_square(File(f), Rank(r))];
            if (!pc) {
                ++empty;
                continue;
            }
            if (empty)
                s += char('0' + empty), empty = 0;
            if (is_promoted(type_of(pc)))
                s += '+';
            s += piece_letter(pc);
        }
        if (empty)
            s += char('0' + empty);
        if (r < 8)
            s += '/';
    }
    return s;
}

std::string hands_sfen(const Hand (&hands)[COLOR_NB]) {
    std::string s;
    for (Color c : {BLACK, WHITE})
        for (PieceType pt : HAND_ORDER) {
            int n = hands[c].count(pt);
            if (n > 1)
                s += std::to_string(n);
            if (n)
                s += piece_letter(make_piece(c, pt));
        }
    return s.empty() ? "-" : s;
}

std::string Position::sfen(bool with_ply) const {
    std::string s = board_sfen(board_) + (side_ == BLACK ? " b " : " w ") + hands_sfen(hand_);
    if (with_ply)
        s += ' ' + std::to_string(game_ply_);
    return s;
}

// --- keys, blockers, consistency

Key Position::compute_board_key() const {
    Key k = side_ == WHITE ? zobrist::SIDE : 0;
    for (Square s = SQ_11; s < SQ_NB; ++s)
        if (board_[s])
            k ^= zobrist::psq(board_[s], s);
    return k;
}

Key Position::compute_hand_key() const {
    Key k = 0;
    for (Color c : {BLACK, WHITE})
        for (int pt = PAWN; pt <= GOLD; ++pt)
            k += zobrist::hand(c, PieceType(pt)) * Key(hand_[c].count(PieceType(pt)));
    return k;
}

void Position::update_blockers(Color c) {
    Bitboard blockers, pinners;
    Square ksq = king_sq_[c];
    if (ksq != SQ_NONE) {
        Color them = ~c;
        Bitboard snipers = (ROOK_PSEUDO[ksq] & rooks_dragons(them)) | (BISHOP_PSEUDO[ksq] & bishops_horses(them))
                         | (lance_pseudo(c, ksq) & pieces(them, LANCE));
        Bitboard occ = pieces();
        snipers.for_each([&](Square sn) {
            Bitboard b = between_bb(sn, ksq) & occ;
            if (b.any() && !b.more_than_one()) {
                blockers |= b;
                if ((b & pieces(c)).any())
                    pinners |= sn;
            }
        });
    }
    st_->blockers_for_king[c] = blockers;
    st_->pinners[~c] = pinners;
}

bool Position::is_consistent() const {
    Bitboard bc[COLOR_NB], bt[PIECE_TYPE_NB];
    Square ks[COLOR_NB] = {SQ_NONE, SQ_NONE};
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        Piece pc = board_[s];
        if (!pc)
            continue;
        if (type_of(pc) == NO_PIECE_TYPE || type_of(pc) >= PIECE_TYPE_NB || (pc & 0xe0))
            return false;
        bc[color_of(pc)] |= s;
        bt[type_of(pc)] |= s;
        if (type_of(pc) == KING) {
            if (ks[color_of(pc)] != SQ_NONE)
                return false;
            ks[color_of(pc)] = s;
        }
    }
    for (Color c : {BLACK, WHITE})
        if (!(bc[c] == by_color_[c]) || ks[c] != king_sq_[c])
            return false;
    if ((by_color_[BLACK] & by_color_[WHITE]).any())
        return false;
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt)
        if (!(bt[pt] == by_type_[pt]))
            return false;
    for (Color c : {BLACK, WHITE})
        for (int pt = PAWN; pt <= GOLD; ++pt)
            if (hand_[c].count(PieceType(pt)) > int(Hand::MASK[pt]))  // Relaxed positions may exceed MAX
                return false;
    if (st_->board_key != compute_board_key() || st_->hand_key != compute_hand_key())
        return false;
    Bitboard chk = king_sq_[side_] != SQ_NONE ? attackers_to(~side_, king_sq_[side_]) : Bitboard();
    if (!(chk == st_->checkers))
        return false;
    // The side not to move may not be in check.
    if (king_sq_[~side_] != SQ_NONE && attacked_by(side_, king_sq_[~side_]))
        return false;
    return true;
}

int Position::history_length() const {
    int n = 0;
    for (const StateInfo* s = st_; s->previous; s = s->previous)
        ++n;
    return n;
}

std::unique_ptr<Position> Position::clone() const {
    auto p = std::make_unique<Position>(Uninitialised{});
    std::copy(std::begin(board_), std::end(board_), p->board_);
    std::copy(std::begin(by_color_), std::end(by_color_), p->by_color_);
    std::copy(std::begin(by_type_), std::end(by_type_), p->by_type_);
    p->hand_[BLACK] = hand_[BLACK];
    p->hand_[WHITE] = hand_[WHITE];
    p->king_sq_[BLACK] = king_sq_[BLACK];
    p->king_sq_[WHITE] = king_sq_[WHITE];
    p->side_ = side_;
    p->game_ply_ = game_ply_;
    std::vector<const StateInfo*> chain;
    for (const StateInfo* s = st_; s; s = s->previous)
        chain.push_back(s);
    p->root_ = *chain.back();
    p->root_.previous = nullptr;
    p->st_ = &p->root_;
    for (auto it = chain.rbegin() + 1; it != chain.rend(); ++it) {
        p->history_.push_back(**it);
        p->history_.back().previous = p->st_;
        p->st_ = &p->history_.back();
    }
    return p;
}

// --- moves

Move Position::make_move(Square from, Square to, bool promote_it) const {
    Piece pc = board_[from];
    return promote_it ? Move::make_promote(from, to, promote(pc)) : Move::make(from, to, pc);
}

Move Position::to_move(Move16 m16) const {
    std::uint32_t raw = m16.raw();
    Square to = Square(raw & 0x7f), from = Square((raw >> 7) & 0x7f);
    if (!is_ok(to))
        return Move::none();
    if (raw & Move::DROP_FLAG) {
        PieceType pt = PieceType(from);
        return pt >= PAWN && pt <= GOLD && !(raw & Move::PROMOTE_FLAG) ? make_drop(pt, to) : Move::none();
    }
    if (!is_ok(from) || from == to || !board_[from]
        || ((raw & Move::PROMOTE_FLAG) && !can_promote(type_of(board_[from]))))
        return Move::none();
    return make_move(from, to, raw & Move::PROMOTE_FLAG);
}

bool Position::legal(Move m) const {
    Color us = side_;
    if (m.is_drop()) {
        if (m.dropped_piece() == PAWN) {
            Square k = king_sq_[~us];
            if (k != SQ_NONE && PAWN_ATTACKS[us][m.to()].test(k))
                return !pawn_drop_mates(m.to());
        }
        return true;
    }
    Square from = m.from(), to = m.to();
    if (type_of(board_[from]) == KING)
        return !is_attacked(~us, to, pieces() ^ from);
    if (st_->blockers_for_king[us].test(from))
        return aligned(from, to, king_sq_[us]);
    return true;
}

bool Position::pawn_drop_mates(Square to) const {
    Color us = side_, them = ~us;
    Square ksq = king_sq_[them];
    if (ksq == SQ_NONE || !PAWN_ATTACKS[us][to].test(ksq))
        return false;
    Bitboard occ = pieces();
    // The king takes the pawn unless we defend it.
    if (attackers_to(us, to, occ).empty())
        return false;
    // Another piece takes it (pinned pieces only along their pin line).
    Bitboard defenders = attackers_to(them, to, occ).andnot(square_bb(ksq));
    Bitboard pinned_them = st_->blockers_for_king[them] & pieces(them);
    bool can_capture = false;
    defenders.for_each([&](Square d) {
        if (!pinned_them.test(d) || aligned(d, to, ksq))
            can_capture = true;
    });
    if (can_capture)
        return false;
    // The king steps away.
    Bitboard escapes = KING_ATTACKS[ksq].andnot(pieces(them)).andnot(square_bb(to));
    Bitboard occ2 = (occ | to) ^ ksq;
    bool escape = false;
    escapes.for_each([&](Square e) {
        if (!escape && !is_attacked(us, e, occ2))
            escape = true;
    });
    return !escape;
}

bool Position::gives_check(Move m) const {
    Color us = side_;
    Square ksq = king_sq_[~us];
    if (ksq == SQ_NONE)
        return false;
    Square to = m.to();
    Bitboard occ = pieces() | to;
    if (!m.is_drop()) {
        Square from = m.from();
        occ ^= from;
        if (st_->blockers_for_king[~us].test(from) && !aligned(from, to, ksq))
            return true;  // discovered check
        if (type_of(m.piece_after()) == KING)
            return false;  // a king next to the other king would be in check itself
    }
    return attacks_of(m.piece_after(), to, occ).test(ksq);
}

bool Position::pseudo_legal(Move m) const {
    auto r = check_move(m);
    if (r)
        return true;
    IllegalMove e = r.error();
    if (e != IllegalMove::IgnoredCheck && e != IllegalMove::SelfCheck && e != IllegalMove::DropPawnMate)
        return false;
    // Left to legal(): king safety and pawn-drop mate. When in check, a move other than the
    // king's must still capture the only checker or block it (legal() assumes an evasion).
    if (!in_check() || (!m.is_drop() && type_of(board_[m.from()]) == KING))
        return true;
    Bitboard chk = st_->checkers;
    if (chk.more_than_one())
        return false;
    Square c = chk.lsb();
    Bitboard target = between_bb(c, king_sq_[side_]);
    if (!m.is_drop())
        target |= c;
    return target.test(m.to());
}

Result<void, IllegalMove> Position::check_move(Move m) const {
    using IM = IllegalMove;
    Color us = side_;
    Square to = m.to();
    if (!m.is_ok() || !is_ok(to) || (m.raw() >> 21) != 0)
        return unexpected(IM::NotAMove);
    Bitboard occ = pieces();
    Square from = SQ_NONE;
    PieceType pt;
    if (m.is_drop()) {
        pt = m.dropped_piece();
        if (pt < PAWN || pt > GOLD || m.is_promotion() || m.piece_after() != make_piece(us, pt))
            return unexpected(IM::NotAMove);
        if (!hand_[us].has(pt))
            return unexpected(IM::NotInHand);
        if (board_[to])
            return unexpected(IM::Occupied);
        Rank rr = relative_rank(us, rank_of(to));
        if (((pt == PAWN || pt == LANCE) && rr == RANK_1) || (pt == KNIGHT && rr <= RANK_2))
            return unexpected(IM::DeadPiece);
        if (pt == PAWN && (pieces(us, PAWN) & FILE_BB[file_of(to)]).any())
            return unexpected(IM::TwoPawns);
        occ |= to;
    } else {
        from = m.from();
        if (!is_ok(from))
            return unexpected(IM::NotAMove);
        Piece pc = board_[from];
        if (!pc || color_of(pc) != us)
            return unexpected(IM::NotYourPiece);
        pt = type_of(pc);
        if (m.is_promotion()) {
            if (!can_promote(pt))
                return unexpected(IM::CannotPromote);
            if (m.piece_after() != promote(pc))
                return unexpected(IM::NotAMove);
        } else if (m.piece_after() != pc)
            return unexpected(IM::NotAMove);
        if (board_[to] && color_of(board_[to]) == us)
            return unexpected(IM::Occupied);
        if (!attacks_of(pc, from, occ).test(to))
            return unexpected(IM::CannotReach);
        if (m.is_promotion() && !in_zone(us, from) && !in_zone(us, to))
            return unexpected(IM::CannotPromote);
        Rank rr = relative_rank(us, rank_of(to));
        if (!m.is_promotion() && (((pt == PAWN || pt == LANCE) && rr == RANK_1) || (pt == KNIGHT && rr <= RANK_2)))
            return unexpected(IM::DeadPiece);
        occ = (occ ^ from) | to;
    }
    // The own king may not be attacked after the move (a captured piece no longer attacks).
    Square k = king_sq_[us];
    if (k != SQ_NONE) {
        if (from != SQ_NONE && type_of(board_[from]) == KING)
            k = to;
        if (attackers_to(~us, k, occ).andnot(square_bb(to)).any())
            return unexpected(in_check() ? IM::IgnoredCheck : IM::SelfCheck);
    }
    if (m.is_drop() && pt == PAWN && pawn_drop_mates(to))
        return unexpected(IM::DropPawnMate);
    return {};
}

// --- do/undo

void Position::do_move(Move m, StateInfo& new_st) {
    HISHA_ASSERT(2, m.is_ok());
    // Step 1. Copy the carried fields and link the new state.
    std::memcpy(static_cast<void*>(&new_st), st_, offsetof(StateInfo, checkers));
    new_st.previous = st_;
    st_ = &new_st;
    ++st_->plies_from_null;
    st_->move = m;

    Color us = side_, them = ~us;
    Square to = m.to();
    Piece pc = m.piece_after();
    Key bk = st_->board_key ^ zobrist::SIDE;
    Key hk = st_->hand_key;

    // Step 2. Move the piece (or drop it) and update the keys.
    if (m.is_drop()) {
        PieceType pt = m.dropped_piece();
        hand_[us].remove(pt);
        hk -= zobrist::hand(us, pt);
        put_piece(pc, to);
        bk ^= zobrist::psq(pc, to);
        st_->captured = NO_PIECE;
    } else {
        Square from = m.from();
        Piece moved = board_[from];
        Piece captured = board_[to];
        if (captured) {
            HISHA_ASSERT(1, type_of(captured) != KING);
            PieceType cpt = unpromote(type_of(captured));
            remove_piece(captured, to);
            bk ^= zobrist::psq(captured, to);
            hand_[us].add(cpt);
            hk += zobrist::hand(us, cpt);
        }
        remove_piece(moved, from);
        put_piece(pc, to);
        bk ^= zobrist::psq(moved, from) ^ zobrist::psq(pc, to);
        if (type_of(pc) == KING)
            king_sq_[us] = to;
        st_->captured = captured;
    }
    st_->board_key = bk;
    st_->hand_key = hk;
    side_ = them;
    ++game_ply_;

    // Step 3. Checks given: the moved piece directly, or a slider behind it (discovered).
    Square ksq = king_sq_[them];
    Bitboard checkers;
    if (ksq != SQ_NONE) {
        Bitboard occ = pieces();
        if (attacks_of(pc, to, occ).test(ksq))
            checkers |= to;
        if (!m.is_drop() && st_->previous->blockers_for_king[them].test(m.from()) && !aligned(m.from(), to, ksq))
            checkers = attackers_to(us, ksq, occ);
    }
    st_->checkers = checkers;
    st_->continuous_check[us] = checkers.any() ? st_->continuous_check[us] + 1 : 0;
    // Step 4. Pins for both kings.
    update_blockers(BLACK);
    update_blockers(WHITE);
    HISHA_ASSERT(3, is_consistent());
}

void Position::undo_move(Move m) {
    side_ = ~side_;
    --game_ply_;
    Color us = side_;
    Square to = m.to();
    Piece pc = m.piece_after();
    if (m.is_drop()) {
        remove_piece(pc, to);
        hand_[us].add(m.dropped_piece());
    } else {
        Square from = m.from();
        Piece moved = m.is_promotion() ? demote(pc) : pc;
        remove_piece(pc, to);
        put_piece(moved, from);
        if (type_of(moved) == KING)
            king_sq_[us] = from;
        if (Piece captured = st_->captured) {
            put_piece(captured, to);
            hand_[us].remove(unpromote(type_of(captured)));
        }
    }
    st_ = st_->previous;
    HISHA_ASSERT(3, is_consistent());
}

void Position::do_null_move(StateInfo& new_st) {
    HISHA_ASSERT(1, !in_check());
    std::memcpy(static_cast<void*>(&new_st), st_, sizeof(StateInfo));
    new_st.previous = st_;
    st_ = &new_st;
    st_->board_key ^= zobrist::SIDE;
    st_->plies_from_null = 0;
    st_->captured = NO_PIECE;
    st_->move = Move::null();
    st_->checkers = Bitboard();
    side_ = ~side_;
    ++game_ply_;
}

void Position::undo_null_move() {
    side_ = ~side_;
    --game_ply_;
    st_ = st_->previous;
}

Result<void, IllegalMove> Position::try_play(Move m) {
    if (auto r = check_move(m); !r)
        return r;
    play(m);
    return {};
}

void Position::play(Move m) {
    history_.emplace_back();
    do_move(m, history_.back());
}

void Position::unplay() {
    HISHA_ASSERT(1, !history_.empty() && st_ == &history_.back());
    undo_move(st_->move);
    history_.pop_back();
}

RepetitionInfo Position::repetition_info(int max_back) const {
    RepetitionInfo info;
    Key k = key();
    const StateInfo* s = st_;
    int end = std::min(max_back, st_->plies_from_null);
    for (int d = 2; d <= end; d += 2) {
        if (!s->previous || !s->previous->previous)
            break;
        s = s->previous->previous;
        if (s->key() == k) {
            if (info.count++ == 0)
                info.last_distance = d;
            info.first_distance = d;
        }
    }
    return info;
}

}  // namespace hisha::core
