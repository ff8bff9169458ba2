// The packed position and the 48-byte training record (training_data.h).
#include "training_data.h"

#include <cstring>

namespace hisha::engine::nnue {

using namespace core;

namespace {

class BitWriter {
public:
    explicit BitWriter(PackedPosition& out) : out_(out) { out_.fill(0); }
    bool put(std::uint32_t value, int bits) {
        for (int i = 0; i < bits; ++i, ++at_) {
            if (at_ >= PACKED_BYTES * 8)
                return false;
            if ((value >> i) & 1)
                out_[std::size_t(at_ / 8)] |= std::uint8_t(1u << (at_ % 8));
        }
        return true;
    }
    // A code written bit by bit in reading order ("1110": 1, 1, 1, 0).
    bool code(const char* bits) {
        for (; *bits; ++bits)
            if (!put(*bits == '1', 1))
                return false;
        return true;
    }

private:
    PackedPosition& out_;
    int at_ = 0;
};

class BitReader {
public:
    explicit BitReader(const PackedPosition& in) : in_(in) {}
    bool get(int bits, std::uint32_t& value) {
        value = 0;
        for (int i = 0; i < bits; ++i, ++at_) {
            if (at_ >= PACKED_BYTES * 8)
                return false;
            value |= std::uint32_t((in_[std::size_t(at_ / 8)] >> (at_ % 8)) & 1) << i;
        }
        return true;
    }
    int position() const { return at_; }
    bool rest_zero() const {
        for (int i = at_; i < PACKED_BYTES * 8; ++i)
            if ((in_[std::size_t(i / 8)] >> (i % 8)) & 1)
                return false;
        return true;
    }

private:
    const PackedPosition& in_;
    int at_ = 0;
};

const char* kind_code(PieceType base) {
    switch (base) {
    case PAWN: return "0";
    case LANCE: return "100";
    case KNIGHT: return "101";
    case SILVER: return "110";
    case GOLD: return "1110";
    case BISHOP: return "11110";
    default: return "11111";  // ROOK
    }
}

// Hand fields in packing order (P L N S G B R) and their widths.
constexpr PieceType HAND_PACK_ORDER[7] = {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK};
constexpr int HAND_PACK_BITS[7] = {5, 3, 3, 3, 3, 2, 2};

// A piece's kind as pack() codes it (kind_code): the leading ones (at most 4), then the code's
// last bit where there is one.
PieceType read_kind(BitReader& r) {
    std::uint32_t bit = 0, b2 = 0;
    int ones = 0;
    while (ones < 4 && r.get(1, bit) && bit)
        ++ones;
    switch (ones) {
    case 0: return PAWN;
    case 1: r.get(1, b2); return b2 ? KNIGHT : LANCE;
    case 2: return SILVER;
    case 3: return GOLD;
    default: r.get(1, b2); return b2 ? ROOK : BISHOP;
    }
}

// The SFEN of a board (by square), hands and side to move, at move 1.
std::string sfen_of(const Piece board[SQ_NB], const Hand hands[COLOR_NB], bool white_to_move) {
    // SFEN: ranks a..i, files 9..1.
    static const char* const LETTERS = " plnsbrgk";
    std::string sfen;
    for (int rank = 0; rank < 9; ++rank) {
        int empty = 0;
        for (int file = 8; file >= 0; --file) {
            Piece pc = board[file * 9 + rank];
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty)
                sfen += char('0' + empty);
            empty = 0;
            PieceType pt = type_of(pc);
            PieceType base = is_promoted(pt) ? PieceType(pt & 7) : pt;
            char ch = LETTERS[base];
            if (color_of(pc) == BLACK)
                ch = char(ch - 'a' + 'A');
            if (is_promoted(pt))
                sfen += '+';
            sfen += ch;
        }
        if (empty)
            sfen += char('0' + empty);
        if (rank < 8)
            sfen += '/';
    }
    sfen += white_to_move ? " w " : " b ";
    std::string hand;
    for (Color c : {BLACK, WHITE})
        for (PieceType pt : HAND_ORDER) {
            int n = hands[c].count(pt);
            if (!n)
                continue;
            if (n > 1)
                hand += std::to_string(n);
            char ch = LETTERS[pt];
            hand += c == BLACK ? char(ch - 'a' + 'A') : ch;
        }
    sfen += hand.empty() ? "-" : hand;
    sfen += " 1";
    return sfen;
}

}  // namespace

bool pack(const Position& pos, PackedPosition& out) {
    BitWriter w(out);
    Square kb = pos.king_square(BLACK), kw = pos.king_square(WHITE);
    w.put(pos.side_to_move() == WHITE, 1);
    w.put(kb, 7);
    w.put(kw, 7);
    for (int s = 0; s < SQ_NB; ++s) {
        if (s == kb || s == kw)
            continue;
        Piece pc = pos.piece_on(Square(s));
        if (pc == NO_PIECE) {
            if (!w.put(0, 1))
                return false;
            continue;
        }
        PieceType pt = type_of(pc);
        if (pt == KING)
            return false;  // a second king of a colour
        PieceType base = is_promoted(pt) ? PieceType(pt & 7) : pt;
        if (!w.put(1, 1) || !w.code(kind_code(base)))
            return false;
        if (can_promote(base) && !w.put(is_promoted(pt), 1))
            return false;
        if (!w.put(color_of(pc) == WHITE, 1))
            return false;
    }
    for (Color c : {BLACK, WHITE})
        for (int i = 0; i < 7; ++i)
            if (!w.put(std::uint32_t(pos.hand(c).count(HAND_PACK_ORDER[i])), HAND_PACK_BITS[i]))
                return false;
    return true;
}

Result<std::string, std::string> unpack_sfen(const PackedPosition& in) {
    auto fail = [](const std::string& why) { return core::unexpected(why); };
    BitReader r(in);
    std::uint32_t stm, kb, kw;
    r.get(1, stm);
    r.get(7, kb);
    r.get(7, kw);
    if (kb > SQ_NB || kw > SQ_NB || (kb == kw && kb != SQ_NB))
        return fail("bad king squares " + std::to_string(kb) + " and " + std::to_string(kw));
    Piece board[SQ_NB] = {};
    if (kb < SQ_NB)
        board[kb] = B_KING;
    if (kw < SQ_NB)
        board[kw] = W_KING;
    for (int s = 0; s < SQ_NB; ++s) {
        if (s == int(kb) || s == int(kw))
            continue;
        std::uint32_t bit;
        if (!r.get(1, bit))
            return fail("the board runs past the end (square " + std::to_string(s) + ")");
        if (!bit)
            continue;
        PieceType base = read_kind(r);
        std::uint32_t promoted = 0, white = 0;
        if (can_promote(base))
            r.get(1, promoted);
        if (!r.get(1, white))
            return fail("the board runs past the end (square " + std::to_string(s) + ")");
        board[s] = make_piece(white ? WHITE : BLACK, promoted ? promote(base) : base);
    }
    Hand hands[COLOR_NB];
    for (Color c : {BLACK, WHITE})
        for (int i = 0; i < 7; ++i) {
            std::uint32_t n;
            if (!r.get(HAND_PACK_BITS[i], n))
                return fail("the hands run past the end");
            hands[c].set(HAND_PACK_ORDER[i], int(n));
        }
    if (!r.rest_zero())
        return fail("bits set after the hands (bit " + std::to_string(r.position()) + " on)");
    return sfen_of(board, hands, stm != 0);
}

std::array<std::uint8_t, RECORD_BYTES> TrainingRecord::encode() const {
    std::array<std::uint8_t, RECORD_BYTES> b{};
    std::memcpy(b.data(), position.data(), PACKED_BYTES);
    auto u16 = [&](int at, std::uint16_t v) {
        b[std::size_t(at)] = std::uint8_t(v & 0xff);
        b[std::size_t(at + 1)] = std::uint8_t(v >> 8);
    };
    u16(40, std::uint16_t(score));
    u16(42, move);
    u16(44, ply);
    b[46] = std::uint8_t(result);
    std::uint8_t check = 0x5A;
    for (int i = 0; i < 47; ++i)
        check ^= b[std::size_t(i)];
    b[47] = check;
    return b;
}

Result<TrainingRecord, std::string> TrainingRecord::decode(const std::uint8_t* b) {
    std::uint8_t check = 0x5A;
    for (int i = 0; i < 47; ++i)
        check ^= b[i];
    if (check != b[47])
        return core::unexpected(std::string("check byte mismatch (corrupt record)"));
    TrainingRecord r;
    std::memcpy(r.position.data(), b, PACKED_BYTES);
    auto u16 = [&](int at) { return std::uint16_t(b[at] | (b[at + 1] << 8)); };
    r.score = std::int16_t(u16(40));
    r.move = u16(42);
    r.ply = u16(44);
    r.result = std::int8_t(b[46]);
    if (r.result < -1 || r.result > 1)
        return core::unexpected("result " + std::to_string(int(r.result)) + " is not -1, 0 or 1");
    return r;
}

Result<DecodedRecord, std::string> decode_position(const TrainingRecord& r) {
    auto sfen = unpack_sfen(r.position);
    if (!sfen)
        return core::unexpected(sfen.error());
    std::string s = sfen.value();
    s.resize(s.size() - 1);
    s += std::to_string(std::max<int>(1, r.ply));
    DecodedRecord d;
    d.pos = std::make_unique<Position>();
    if (auto ok = d.pos->set(s, SfenRules::Relaxed); !ok)
        return core::unexpected("not a legal position: " + ok.error().to_string() + " (" + s + ")");
    d.move = d.pos->to_move(Move16(r.move));
    if (!d.move || !d.pos->is_legal(d.move))
        return core::unexpected("best move " + std::to_string(r.move) + " is not legal in " + s);
    return d;
}

}  // namespace hisha::engine::nnue
