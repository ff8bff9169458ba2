// The rules text. The rules themselves are enforced by src/core; this is what a player reads.
#include "rules_text.h"

#include "core/handicap.h"

namespace hisha::play {

namespace {

constexpr std::string_view PIECES =
    "Two players, Black (sente, who moves first) and White (gote), each start with twenty pieces\n"
    "on a board of nine files (9 to 1, right to left seen from Black) and nine ranks (a to i,\n"
    "top to bottom). The pieces are the same for both sides; the way they point tells them apart.\n"
    "  King   (K) one square in any direction.\n"
    "  Rook   (R) any distance along a file or a rank.\n"
    "  Bishop (B) any distance diagonally.\n"
    "  Gold   (G) one square in any direction except diagonally backwards.\n"
    "  Silver (S) one square diagonally, or one square straight forwards.\n"
    "  Knight (N) two squares forwards and one to the side, jumping over anything between.\n"
    "  Lance  (L) any distance straight forwards.\n"
    "  Pawn   (P) one square straight forwards; it captures the same way.\n"
    "Only the knight jumps; every other piece stops at the first piece in its way and may\n"
    "capture it if it belongs to the opponent.";

constexpr std::string_view PROMOTION =
    "The three ranks farthest from a player are that player's promotion zone (a-c for Black,\n"
    "g-i for White). A rook, bishop, silver, knight, lance or pawn that starts or ends a move\n"
    "in the zone may promote at the end of that move; the king and the gold never promote.\n"
    "  Dragon (+R)  a rook that may also step one square diagonally.\n"
    "  Horse  (+B)  a bishop that may also step one square along a file or rank.\n"
    "  +S +N +L +P (the promoted pawn is the tokin) move like a gold.\n"
    "Promotion is a choice, except where the piece could never move again: a pawn or lance\n"
    "reaching the last rank and a knight reaching either of the last two ranks must promote.\n"
    "Type the move with + to promote (2d2c+, P-2c+) and with = to decline (2d2c=); when you\n"
    "leave it open Hisha asks.";

constexpr std::string_view DROPS =
    "A captured piece changes sides: it goes into the captor's hand, unpromoted. Instead of\n"
    "moving, a player may drop a piece from the hand onto any empty square, unpromoted and\n"
    "facing the opponent (P*5e or P'5e). A dropped piece may promote on a later move only,\n"
    "even if it was dropped into the zone. Drops may give check and may even give mate,\n"
    "with one exception (see: rules prohibited).";

constexpr std::string_view PROHIBITED =
    "Three drops are forbidden:\n"
    "  Dead piece: a pawn or lance may not be dropped on the last rank, nor a knight on the\n"
    "    last two ranks, where it could never move.\n"
    "  Two pawns (nifu): a pawn may not be dropped on a file that already holds an unpromoted\n"
    "    pawn of the same player (a tokin does not count).\n"
    "  Drop-pawn mate (uchifuzume): a pawn may not be dropped to give checkmate at once.\n"
    "    Mating with a pawn that moves there, or checking with a dropped pawn that the king can\n"
    "    escape, is allowed.\n"
    "The same dead-piece rule applies to moves: a piece that would be stuck must promote.";

constexpr std::string_view CHECK =
    "A king that is attacked is in check; the player must end the check at once, by moving\n"
    "the king, capturing the attacker or putting a piece between (by a move or a drop). No move\n"
    "may leave one's own king attacked. A king in check that cannot escape is checkmated, and\n"
    "its owner has lost. A player with no legal move at all has lost too (it cannot happen in\n"
    "practice, because there is almost always a drop). Resigning is the usual way a game ends.";

constexpr std::string_view DRAWS =
    "Draws are rare. Sennichite: when the same position (the board, both hands and the side to\n"
    "move) occurs for the fourth time, the game is a draw, unless one player gave check with\n"
    "every move of the repetition: that player loses. Impasse (jishogi): when both kings have\n"
    "entered the enemy camp and neither can be mated, the players count their pieces on the\n"
    "board and in hand, 5 points for a rook or bishop (promoted or not) and 1 for every other\n"
    "piece except the king. With 24 points or more each the game is drawn; a player below 24\n"
    "loses. Under the CSA 27-point rule a player whose king is in the zone with at least ten\n"
    "other pieces there and 28 points (Black) or 27 (White) may declare and win instead.";

constexpr std::string_view HANDICAPS_INTRO =
    "In a handicap game the stronger player takes White, removes pieces before the start and\n"
    "moves first. In an impasse count White is credited with the removed pieces. The handicaps\n"
    "(the name to type after `handicap`, then the English and Japanese names):";

const std::vector<RulesTopic> TOPICS = {
    {"pieces", "The pieces and how they move", "moves board"},
    {"promotion", "Promotion", "promote zone"},
    {"drops", "Captures and drops", "drop captures hand"},
    {"prohibited", "Prohibited drops", "nifu uchifuzume illegal forbidden"},
    {"check", "Check and mate", "mate checkmate"},
    {"draws", "Repetition, impasse and draws", "draw sennichite impasse jishogi repetition"},
    {"handicaps", "Handicaps", "handicap"},
};

std::string handicaps_text() {
    std::string out(HANDICAPS_INTRO);
    for (const auto& h : core::all_handicaps()) {
        std::string id(h.id);
        id.resize(14, ' ');
        out += "\n  " + id + std::string(h.english) + " (" + std::string(h.japanese) + ")";
    }
    return out;
}

bool matches(const RulesTopic& t, std::string_view word) {
    if (word == t.name)
        return true;
    std::string_view a = t.aliases;
    while (!a.empty()) {
        std::size_t sp = a.find(' ');
        if (a.substr(0, sp) == word)
            return true;
        a = sp == std::string_view::npos ? std::string_view() : a.substr(sp + 1);
    }
    return false;
}

}  // namespace

const std::vector<RulesTopic>& rules_topics() { return TOPICS; }

std::optional<std::string> rules_text(std::string_view topic) {
    for (const auto& t : TOPICS) {
        if (!matches(t, topic))
            continue;
        std::string body;
        if (t.name == "pieces") body = PIECES;
        else if (t.name == "promotion") body = PROMOTION;
        else if (t.name == "drops") body = DROPS;
        else if (t.name == "prohibited") body = PROHIBITED;
        else if (t.name == "check") body = CHECK;
        else if (t.name == "draws") body = DRAWS;
        else body = handicaps_text();
        return std::string(t.title) + "\n" + body;
    }
    return std::nullopt;
}

std::string all_rules_text() {
    std::string out;
    for (const auto& t : TOPICS)
        out += (out.empty() ? "" : "\n\n") + *rules_text(t.name);
    return out;
}

}  // namespace hisha::play
