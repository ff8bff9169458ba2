// Training data for the network (docs/nnue.md): fixed 48-byte records, headerless so that
// files can be concatenated and appended to.
//
//   bytes 0-39  the position, packed (below)
//         40-41 int16  the search's score, centipawns, side to move's view
//         42-43 uint16 the search's best move (Move16: to | from << 7 | drop << 14 | promote << 15,
//                      a drop's "from" is the piece type)
//         44-45 uint16 the game ply (SFEN move number)
//         46    int8   the game's result for the side to move: 1 win, 0 draw, -1 loss
//         47    uint8  check byte: 0x5A xor every byte 0-46
//
// The packed position is a bit stream, least significant bit of byte 0 first: the side to move
// (1 bit, 1 = White); Black's and White's king squares (7 bits each, 81 = none); then each square
// 0..80 (file-major, 11 12 ... 19 21 ... 99) without the kings: 0 for an empty square, else 1,
// the kind (pawn 0, lance 100, knight 101, silver 110, gold 1110, bishop 11110, rook 11111, bits
// in that order), a promoted bit for kinds that promote, the colour (1 = White); then each
// hand, Black's first, as counts: pawn 5 bits, lance, knight, silver, gold 3 bits each, bishop
// and rook 2 bits each; zero bits to the end. A full set of 40 pieces needs at most 298 of the
// 320 bits.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/position.h"
#include "core/result.h"

namespace hisha::engine::nnue {

inline constexpr int PACKED_BYTES = 40;
inline constexpr int RECORD_BYTES = 48;

using PackedPosition = std::array<std::uint8_t, PACKED_BYTES>;

/// Packs a position; false when it does not fit (piece mixes beyond a shogi set).
bool pack(const core::Position& pos, PackedPosition& out);
/// The SFEN (move number 1) of a packed position, or what is wrong with the bits.
core::Result<std::string, std::string> unpack_sfen(const PackedPosition& in);

struct TrainingRecord {
    PackedPosition position{};
    std::int16_t score = 0;
    std::uint16_t move = 0;
    std::uint16_t ply = 0;
    std::int8_t result = 0;

    /// The 48 bytes of the record (with its check byte).
    std::array<std::uint8_t, RECORD_BYTES> encode() const;
    /// Reads 48 bytes; the error names what is wrong (check byte, result out of range).
    static core::Result<TrainingRecord, std::string> decode(const std::uint8_t* bytes);
};

/// What a record means: the position set up (at its ply) and the best move in it. The error
/// says why the record is not a legal position with a legal move.
struct DecodedRecord {
    std::unique_ptr<core::Position> pos;
    core::Move move;
};
core::Result<DecodedRecord, std::string> decode_position(const TrainingRecord& r);

}  // namespace hisha::engine::nnue
