// The handicap table and name lookup.
#include "handicap.h"

#include <array>
#include <string>

#include "text.h"

namespace hisha::core {

namespace {

// Boards are spelled out in full so that each SFEN is a plain constant.
// clang-format off
constexpr std::array<HandicapInfo, 17> TABLE = {{
    {Handicap::Even, "even", "Even game", "平手", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 0},
    {Handicap::Lance, "lance", "Left lance", "香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
    {Handicap::RightLance, "right-lance", "Right lance", "右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
    {Handicap::Bishop, "bishop", "Bishop", "角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 5},
    {Handicap::Rook, "rook", "Rook", "飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 5},
    {Handicap::RookLance, "rook-lance", "Rook and lance", "飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 6},
    {Handicap::TwoPiece, "2-piece", "Two pieces", "二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 10},
    {Handicap::ThreePiece, "3-piece", "Three pieces", "三枚落ち", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 11},
    {Handicap::FourPiece, "4-piece", "Four pieces", "四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 12},
    {Handicap::FivePiece, "5-piece", "Five pieces (right)", "五枚落ち", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 13},
    {Handicap::FivePieceLeft, "5-piece-left", "Five pieces (left)", "左五枚落ち", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 13},
    {Handicap::SixPiece, "6-piece", "Six pieces", "六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 14},
    {Handicap::SevenPieceLeft, "7-piece-left", "Seven pieces (left)", "左七枚落ち", "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 15},
    {Handicap::SevenPieceRight, "7-piece-right", "Seven pieces (right)", "右七枚落ち", "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 15},
    {Handicap::EightPiece, "8-piece", "Eight pieces", "八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 16},
    {Handicap::TenPiece, "10-piece", "Ten pieces", "十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 18},
    {Handicap::ThreePawns, "3-pawns", "Three pawns", "歩三兵", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1", 24},
}};
// clang-format on

// Lower-case ASCII and drop spaces, '-', '_' and the Japanese middle dot.
std::string normalise(std::string_view s) {
    std::string out;
    for (char ch : s) {
        if (ch == ' ' || ch == '-' || ch == '_' || ch == '\t')
            continue;
        out += ch >= 'A' && ch <= 'Z' ? char(ch + 32) : ch;
    }
    return out;
}

// Other names of each handicap, seen in the seeds, in KIF/CSA tools and in common English usage:
// space-separated and normalised. The ids and the English and Japanese names in TABLE are
// accepted too.
struct Aliases {
    Handicap h;
    std::string_view names;
};
constexpr Aliases ALIASES[] = {
    {Handicap::Even, "hirate none"},
    {Handicap::Lance, "kyouochi kyoochi"},
    {Handicap::Bishop, "kaku"},
    {Handicap::Rook, "hisha"},
    {Handicap::RookLance, "hikyou"},
    {Handicap::TwoPiece, "twopiece rookandbishop 2枚落ち"},
    {Handicap::ThreePiece, "threepiece 3枚落ち"},
    {Handicap::FourPiece, "fourpiece 4枚落ち"},
    {Handicap::FivePiece, "fivepiece fivepieces 5piecesright 5pieceright fivepieceright 右五枚落ち 5枚落ち"},
    {Handicap::FivePieceLeft, "fivepieceleft 5piecesleft"},
    {Handicap::SixPiece, "sixpiece 6枚落ち"},
    {Handicap::SevenPieceLeft, "sevenpieceleft"},
    {Handicap::SevenPieceRight, "sevenpieceright"},
    {Handicap::EightPiece, "eightpiece 8枚落ち"},
    {Handicap::TenPiece, "tenpiece 10枚落ち"},
};

// The board, side and hands of an SFEN (the move number dropped).
std::string_view without_ply(std::string_view sfen) {
    while (!sfen.empty() && sfen.back() == ' ')
        sfen.remove_suffix(1);
    int spaces = 0;
    for (char ch : sfen)
        spaces += ch == ' ';
    if (spaces >= 3)
        sfen = sfen.substr(0, sfen.rfind(' '));
    return sfen;
}
}  // namespace

std::span<const HandicapInfo> all_handicaps() { return TABLE; }

const HandicapInfo& handicap_info(Handicap h) { return TABLE[std::size_t(h)]; }

std::optional<Handicap> handicap_from_name(std::string_view name) {
    std::string n = normalise(name);
    if (n.empty())
        return std::nullopt;
    for (const auto& info : TABLE)
        if (n == normalise(info.id) || n == normalise(info.english) || n == normalise(info.japanese))
            return info.handicap;
    for (const auto& a : ALIASES)
        for (const std::string& alias : text::words(a.names))
            if (n == alias)
                return a.h;
    return std::nullopt;
}

std::optional<Handicap> handicap_from_sfen(std::string_view sfen) {
    if (sfen.rfind("sfen ", 0) == 0)
        sfen.remove_prefix(5);
    if (sfen == "startpos")
        return Handicap::Even;
    std::string_view key = without_ply(sfen);
    for (const auto& info : TABLE)
        if (without_ply(info.sfen) == key)
            return info.handicap;
    return std::nullopt;
}

}  // namespace hisha::core
