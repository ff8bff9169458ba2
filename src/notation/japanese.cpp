// Japanese piece names, numerals, squares and the KIF/KI2 move texts. The KI2 reader and
// writer share one filter (which of the pieces that reach a square a modifier such as 右 or
// 上 selects), so that whatever the writer emits the reader resolves to the same move.
#include "japanese.h"

#include <array>
#include <vector>

namespace hisha::notation {

using core::Color;
using core::Move;
using core::PieceType;
using core::Position;
using core::Square;

namespace {

constexpr std::array<std::string_view, 10> ZENKAKU = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
constexpr std::array<std::string_view, 10> KANJI = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
constexpr std::array<std::string_view, 15> PIECE_NAMES = {"",   "歩", "香",   "桂",   "銀",   "角", "飛", "金",
                                                          "玉", "と", "成香", "成桂", "成銀", "馬", "龍"};
constexpr std::array<std::string_view, 15> PIECE_CHARS = {"",   "歩", "香", "桂", "銀", "角", "飛", "金",
                                                          "玉", "と", "杏", "圭", "全", "馬", "龍"};

struct PieceAlias {
    std::string_view text;
    PieceType pt;
};
// Two-character names first, so that 成香 is not read as a stray 成.
constexpr PieceAlias PIECE_ALIASES[] = {
    {"成香", core::PRO_LANCE}, {"成桂", core::PRO_KNIGHT}, {"成銀", core::PRO_SILVER}, {"歩", core::PAWN},
    {"香", core::LANCE},       {"桂", core::KNIGHT},       {"銀", core::SILVER},       {"金", core::GOLD},
    {"角", core::BISHOP},      {"飛", core::ROOK},         {"玉", core::KING},         {"王", core::KING},
    {"と", core::PRO_PAWN},    {"杏", core::PRO_LANCE},    {"圭", core::PRO_KNIGHT},   {"全", core::PRO_SILVER},
    {"馬", core::HORSE},       {"龍", core::DRAGON},       {"竜", core::DRAGON},
};

constexpr std::string_view IDEOGRAPHIC_SPACE = "\u3000";

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A kanji digit 一..九 only (no ASCII), consumed when present.
std::optional<int> read_kanji_digit(std::string_view& s) {
    for (int n = 1; n <= 9; ++n)
        if (consume(s, KANJI[n]))
            return n;
    return std::nullopt;
}

// ASCII or full-width digits 0-9, consumed when present.
std::optional<int> read_arabic_digit(std::string_view& s) {
    if (!s.empty() && s[0] >= '0' && s[0] <= '9') {
        int n = s[0] - '0';
        s.remove_prefix(1);
        return n;
    }
    if (consume(s, "０"))
        return 0;
    for (int n = 1; n <= 9; ++n)
        if (consume(s, ZENKAKU[n]))
            return n;
    return std::nullopt;
}

ParseError error_at(std::string_view text, std::string_view rest, ParseErrorCode code, std::string message) {
    int column = code_point_count(text.substr(0, text.size() - rest.size())) + 1;
    return ParseError{code, std::move(message), 0, column};
}

// The text of a move token for messages: up to the first ASCII space.
std::string_view token_of(std::string_view text) {
    std::size_t end = 0;
    while (end < text.size() && !is_ascii_space(text[end]))
        ++end;
    return text.substr(0, end);
}

// --- KI2 direction modifiers

enum class HMod { None, Right, Left, Straight };  // 右 左 直
enum class VMod { None, Up, Side, Down };         // 上 寄 引

// How a piece moves, seen by the mover: h = +1 towards his right, -1 towards his left;
// v = +1 forward, -1 backward, 0 sideways. Black's right is the file-1 side.
struct Dir {
    int h;
    int v;
};

Dir direction(Color c, Square from, Square to) {
    int df = int(core::file_of(to)) - int(core::file_of(from));
    int dr = int(core::rank_of(to)) - int(core::rank_of(from));
    if (c == core::WHITE) {
        df = -df;
        dr = -dr;
    }
    return {df < 0 ? 1 : df > 0 ? -1 : 0, dr < 0 ? 1 : dr > 0 ? -1 : 0};
}

// Board pieces of the side to move and of type pt that reach `to` (pins ignored, as the
// notation itself ignores them).
std::vector<Square> reachers(const Position& pos, PieceType pt, Square to) {
    std::vector<Square> out;
    core::Bitboard b = pos.attackers_to(pos.side_to_move(), to) & pos.pieces(pos.side_to_move(), pt);
    while (b.any())
        out.push_back(b.pop_lsb());
    return out;
}

bool matches(Dir d, PieceType pt, HMod h, VMod v) {
    if ((v == VMod::Up && d.v != 1) || (v == VMod::Side && d.v != 0) || (v == VMod::Down && d.v != -1))
        return false;
    if (h == HMod::Straight)
        return d.h == 0 && d.v == 1;
    // A dragon or horse moving straight may be on either side of the other one, so 右/左
    // only rule out the piece that clearly comes from the other side.
    bool two_of_a_kind = pt == core::HORSE || pt == core::DRAGON;
    if (h == HMod::Right)
        return two_of_a_kind ? d.h != 1 : d.h == -1;
    if (h == HMod::Left)
        return two_of_a_kind ? d.h != -1 : d.h == 1;
    return true;
}

// The candidates that the modifiers select.
std::vector<Square> select(const Position& pos, const std::vector<Square>& from, PieceType pt, Square to, HMod h,
                           VMod v) {
    std::vector<Square> out;
    for (Square s : from)
        if (matches(direction(pos.side_to_move(), s, to), pt, h, v))
            out.push_back(s);
    if (out.size() == 2 && (pt == core::HORSE || pt == core::DRAGON) && (h == HMod::Right || h == HMod::Left)) {
        std::vector<Square> sideways;
        for (Square s : out)
            if (direction(pos.side_to_move(), s, to).h != 0)
                sideways.push_back(s);
        out = sideways;
    }
    return out;
}

std::string modifier_text(HMod h, VMod v) {
    constexpr std::array<std::string_view, 4> HT = {"", "右", "左", "直"};
    constexpr std::array<std::string_view, 4> VT = {"", "上", "寄", "引"};
    return std::string(HT[int(h)]) + std::string(VT[int(v)]);
}

// The fewest words that single out this board move (JSA: the motion word first, then the
// position word, then both).
std::string board_modifier(const Position& pos, Move m) {
    Square from = m.from(), to = m.to();
    PieceType pt = core::type_of(pos.piece_on(from));
    std::vector<Square> cands = reachers(pos, pt, to);
    if (cands.size() <= 1)
        return {};
    Dir d = direction(pos.side_to_move(), from, to);
    VMod mine = d.v > 0 ? VMod::Up : d.v < 0 ? VMod::Down : VMod::Side;
    std::vector<HMod> hs;
    if (d.h == -1)
        hs.push_back(HMod::Right);
    else if (d.h == 1)
        hs.push_back(HMod::Left);
    else if (pt == core::HORSE || pt == core::DRAGON)
        hs = {HMod::Right, HMod::Left};
    else if (d.v == 1)
        hs.push_back(HMod::Straight);
    std::vector<std::pair<HMod, VMod>> tries = {{HMod::None, mine}};
    for (HMod h : hs)
        tries.push_back({h, VMod::None});
    for (HMod h : hs)
        if (h != HMod::Straight)
            tries.push_back({h, mine});
    for (auto [h, v] : tries) {
        std::vector<Square> sel = select(pos, cands, pt, to, h, v);
        if (sel.size() == 1 && sel[0] == from)
            return modifier_text(h, v);
    }
    return modifier_text(tries.back().first, tries.back().second);
}

// 成 when promoting; 不成 when the move could have promoted and did not.
std::string_view promotion_suffix(const Position& pos, Move m) {
    if (m.is_drop())
        return {};
    if (m.is_promotion())
        return "成";
    PieceType pt = core::type_of(pos.piece_on(m.from()));
    Color c = pos.side_to_move();
    if (core::can_promote(pt) && (core::in_zone(c, m.from()) || core::in_zone(c, m.to())))
        return "不成";
    return {};
}

std::string_view destination(Move m, Move previous, bool ki2_short) {
    if (previous.is_ok() && previous.to() == m.to())
        return ki2_short ? "同" : "同　";
    return {};
}

}  // namespace

// --- UTF-8 text

char32_t pop_code_point(std::string_view& s) {
    if (s.empty())
        return 0;
    auto c = static_cast<unsigned char>(s[0]);
    int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (n < 0 || s.size() < std::size_t(n) + 1) {
        s.remove_prefix(1);
        return 0xFFFD;
    }
    char32_t cp = n == 0 ? c : n == 1 ? (c & 0x1f) : n == 2 ? (c & 0x0f) : (c & 0x07);
    for (int k = 1; k <= n; ++k) {
        auto d = static_cast<unsigned char>(s[std::size_t(k)]);
        if ((d >> 6) != 2) {
            s.remove_prefix(1);
            return 0xFFFD;
        }
        cp = (cp << 6) | (d & 0x3f);
    }
    s.remove_prefix(std::size_t(n) + 1);
    return cp;
}

int code_point_count(std::string_view s) {
    int n = 0;
    while (!s.empty()) {
        pop_code_point(s);
        ++n;
    }
    return n;
}

int display_width(std::string_view s) {
    int w = 0;
    while (!s.empty()) {
        char32_t cp = pop_code_point(s);
        // Symbols such as ▲ and the CJK block are drawn full width by Japanese fonts; the
        // half-width katakana block is not.
        bool wide = cp >= 0x2000 && !(cp >= 0xFF61 && cp <= 0xFFDC);
        w += wide ? 2 : 1;
    }
    return w;
}

bool consume(std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix)
        return false;
    s.remove_prefix(prefix.size());
    return true;
}

std::string_view skip_spaces(std::string_view s) {
    while (!s.empty()) {
        if (is_ascii_space(s[0]))
            s.remove_prefix(1);
        else if (!consume(s, IDEOGRAPHIC_SPACE))
            break;
    }
    return s;
}

std::string_view trim_spaces(std::string_view s) {
    s = skip_spaces(s);
    while (!s.empty()) {
        if (is_ascii_space(s.back()))
            s.remove_suffix(1);
        else if (s.size() >= 3 && s.substr(s.size() - 3) == IDEOGRAPHIC_SPACE)
            s.remove_suffix(3);
        else
            break;
    }
    return s;
}

// --- pieces

std::string_view piece_kanji(PieceType pt) { return pt < PIECE_NAMES.size() ? PIECE_NAMES[pt] : ""; }

std::string_view piece_char(PieceType pt) { return pt < PIECE_CHARS.size() ? PIECE_CHARS[pt] : ""; }

std::optional<PieceType> read_piece(std::string_view& s) {
    for (const auto& a : PIECE_ALIASES)
        if (consume(s, a.text))
            return a.pt;
    return std::nullopt;
}

// --- numbers and squares

std::string_view zenkaku_digit(int n) { return n >= 1 && n <= 9 ? ZENKAKU[std::size_t(n)] : ""; }

std::string_view kanji_digit(int n) { return n >= 1 && n <= 9 ? KANJI[std::size_t(n)] : ""; }

std::string kanji_number(int n) {
    if (n <= 0 || n > 99)
        return std::to_string(n);
    std::string s;
    if (n >= 10) {
        if (n >= 20)
            s += KANJI[std::size_t(n / 10)];
        s += "十";
    }
    if (n % 10)
        s += KANJI[std::size_t(n % 10)];
    return s;
}

std::optional<int> read_digit(std::string_view& s) {
    std::string_view t = s;
    auto n = read_arabic_digit(t);
    if (!n)
        n = read_kanji_digit(t);
    if (!n || *n == 0)
        return std::nullopt;
    s = t;
    return n;
}

std::optional<int> read_number(std::string_view& s) {
    int value = 0, digits = 0;
    while (auto d = read_arabic_digit(s)) {
        if (++digits <= 6)
            value = value * 10 + *d;
    }
    if (digits > 0)
        return digits <= 6 ? std::optional<int>(value) : std::nullopt;
    std::string_view t = s;
    auto first = read_kanji_digit(t);
    if (consume(t, "十")) {
        int tens = first.value_or(1);
        s = t;
        return tens * 10 + read_kanji_digit(s).value_or(0);
    }
    if (!first)
        return std::nullopt;
    s = t;
    return first;
}

std::string square_name(Square sq) {
    return std::string(ZENKAKU[core::file_of(sq) + 1u]) + std::string(KANJI[core::rank_of(sq) + 1u]);
}

std::optional<Square> read_square(std::string_view& s) {
    std::string_view t = s;
    auto file = read_digit(t);
    auto rank = file ? read_digit(t) : std::nullopt;
    if (!rank)
        return std::nullopt;
    s = t;
    return square_of(*file, *rank);
}

// --- sides

std::string_view side_mark(Color c) { return c == core::BLACK ? "▲" : "△"; }

std::optional<Color> read_side_mark(std::string_view& s) {
    for (std::string_view b : {"▲", "☗", "▼"})
        if (consume(s, b))
            return core::BLACK;
    for (std::string_view w : {"△", "☖", "▽"})
        if (consume(s, w))
            return core::WHITE;
    return std::nullopt;
}

std::string_view side_name(Color c, bool handicap) {
    if (handicap)
        return c == core::BLACK ? "下手" : "上手";
    return c == core::BLACK ? "先手" : "後手";
}

// --- move texts

std::string kif_move_text(const Position& pos, Move m, Move previous) {
    std::string s(destination(m, previous, false));
    if (s.empty())
        s = square_name(m.to());
    if (m.is_drop())
        return s + std::string(piece_kanji(m.dropped_piece())) + "打";
    PieceType pt = core::type_of(pos.piece_on(m.from()));
    s += piece_kanji(pt ? pt : m.moved_type());
    if (m.is_promotion())
        s += "成";
    s += '(';
    s += char('1' + core::file_of(m.from()));
    s += char('1' + core::rank_of(m.from()));
    s += ')';
    return s;
}

std::string ki2_move_text(const Position& pos, Move m, Move previous, bool with_mark) {
    std::string rest;
    if (m.is_drop()) {
        rest = std::string(piece_kanji(m.dropped_piece()));
        if (!reachers(pos, m.dropped_piece(), m.to()).empty())
            rest += "打";
    } else {
        PieceType pt = core::type_of(pos.piece_on(m.from()));
        rest = std::string(piece_kanji(pt ? pt : m.moved_type())) + board_modifier(pos, m)
             + std::string(promotion_suffix(pos, m));
    }
    std::string s = with_mark ? std::string(side_mark(pos.side_to_move())) : std::string();
    // Kifu for Windows pads 同 with an ideographic space only before a one-character rest.
    std::string_view same = destination(m, previous, code_point_count(rest) > 1);
    s += same.empty() ? square_name(m.to()) : std::string(same);
    return s + rest;
}

// --- reading KIF moves

namespace {

// "(77)": the source square of a KIF move; the opening parenthesis is already consumed.
std::optional<Square> read_source(std::string_view& s) {
    std::string_view t = s;
    auto file = read_digit(t);
    auto rank = file ? read_digit(t) : std::nullopt;
    if (!rank || !consume(t, ")"))
        return std::nullopt;
    s = t;
    return square_of(*file, *rank);
}

Result<Square, ParseError> read_destination(std::string_view text, std::string_view& s, Move previous) {
    std::string_view at = s;
    if (consume(s, "同")) {
        if (!previous.is_ok())
            return core::unexpected(error_at(text, at, ParseErrorCode::BadMove,
                                             std::string(token_of(text)) + ": 同 with no previous move"));
        s = skip_spaces(s);
        return previous.to();
    }
    auto sq = read_square(s);
    if (!sq)
        return core::unexpected(
            error_at(text, s, ParseErrorCode::BadMove, std::string(token_of(text)) + ": bad square"));
    return *sq;
}

/// Where a Japanese move goes and with which piece: what follows the side mark.
struct Target {
    Square to;
    PieceType piece;
    std::string_view at_piece;  // where the piece stands in the text
};
/// Reads the destination (同 for `previous`'s) and the piece from `s`; `token` names the move in errors.
Result<Target, ParseError> read_target(std::string_view text, std::string_view& s, Move previous,
                                       std::string_view token) {
    auto to = read_destination(text, s, previous);
    if (!to)
        return core::unexpected(to.error());
    std::string_view at_piece = s;
    auto pt = read_piece(s);
    if (!pt)
        return core::unexpected(
            error_at(text, at_piece, ParseErrorCode::BadMove, std::string(token) + ": unknown piece"));
    return Target{*to, *pt, at_piece};
}

ParseError illegal(const Position& pos, std::string_view token, Move m, core::IllegalMove why) {
    return ParseError{ParseErrorCode::IllegalMove, std::string(token) + ": " + explain_illegal(pos, m, why), 0, 1};
}

}  // namespace

Result<ParsedMove, ParseError> parse_kif_move(const Position& pos, std::string_view text, Move previous) {
    std::string_view s = text;
    read_side_mark(s);
    auto target = read_target(text, s, previous, token_of(text));
    if (!target)
        return core::unexpected(target.error());
    auto [to, pt, at_piece] = *target;
    bool promote = consume(s, "成");
    if (!promote)
        consume(s, "不成");  // not KIF, but some writers add it; declining is the default anyway
    Move m;
    std::string_view at_source = s;
    if (consume(s, "打")) {
        if (promote || pt > core::GOLD)
            return core::unexpected(error_at(text, at_piece, ParseErrorCode::BadMove,
                                             std::string(token_of(text)) + ": only unpromoted pieces are dropped"));
        m = pos.make_drop(pt, to);
    } else if (consume(s, "(")) {
        auto from = read_source(s);
        if (!from)
            return core::unexpected(error_at(text, at_source, ParseErrorCode::BadMove,
                                             std::string(token_of(text)) + ": bad source square"));
        core::Piece pc = pos.piece_on(*from);
        if (pc && core::color_of(pc) == pos.side_to_move() && core::type_of(pc) != pt)
            return core::unexpected(ParseError{ParseErrorCode::IllegalMove,
                                               std::string(token_of(text)) + ": the piece on " + square_name(*from)
                                                   + " is " + std::string(piece_kanji(core::type_of(pc))) + ", not "
                                                   + std::string(piece_kanji(pt)),
                                               0, 1});
        m = pos.make_move(*from, to, promote);
    } else {
        return core::unexpected(error_at(text, at_source, ParseErrorCode::BadMove,
                                         std::string(token_of(text)) + ": expected 打 or a source square like (77)"));
    }
    std::string_view token = text.substr(0, text.size() - s.size());
    if (auto r = pos.check_move(m); !r)
        return core::unexpected(illegal(pos, token, m, r.error()));
    return ParsedMove{m, token.size()};
}

// --- reading KI2 moves

namespace {

struct Ki2Words {
    HMod h = HMod::None;
    VMod v = VMod::None;
    bool promote = false;
    bool drop = false;
};

Ki2Words read_ki2_words(std::string_view& s) {
    Ki2Words w;
    if (consume(s, "右"))
        w.h = HMod::Right;
    else if (consume(s, "左"))
        w.h = HMod::Left;
    else if (consume(s, "直"))
        w.h = HMod::Straight;
    if (consume(s, "上") || consume(s, "行"))
        w.v = VMod::Up;
    else if (consume(s, "寄"))
        w.v = VMod::Side;
    else if (consume(s, "引"))
        w.v = VMod::Down;
    if (consume(s, "成"))
        w.promote = true;
    else if (!consume(s, "不成") && consume(s, "打"))
        w.drop = true;
    return w;
}

std::string squares_text(const std::vector<Square>& v) {
    std::string s;
    for (Square sq : v)
        s += (s.empty() ? "" : ", ") + square_name(sq);
    return s;
}

// Picks the board piece the words name; a drop when none can move there and no word was
// given (tsshogi does the same for files that omit 打).
Result<Move, ParseError> resolve_ki2(const Position& pos, std::string_view token, PieceType pt, Square to,
                                     const Ki2Words& w) {
    std::vector<Square> sel = select(pos, reachers(pos, pt, to), pt, to, w.h, w.v);
    if (sel.size() > 1) {
        std::vector<Square> legal;
        for (Square s : sel)
            if (pos.is_legal(pos.make_move(s, to, w.promote)))
                legal.push_back(s);
        if (legal.size() != 1)
            return core::unexpected(ParseError{ParseErrorCode::BadMove,
                                               std::string(token) + ": ambiguous: " + std::string(piece_kanji(pt))
                                                   + " on " + squares_text(sel) + " can move there",
                                               0, 1});
        sel = legal;
    }
    if (sel.empty()) {
        bool plain = w.h == HMod::None && w.v == VMod::None && !w.promote;
        if (plain && pt <= core::GOLD && pos.hand(pos.side_to_move()).has(pt))
            return pos.make_drop(pt, to);
        return core::unexpected(ParseError{
            ParseErrorCode::IllegalMove,
            std::string(token) + ": no " + std::string(piece_kanji(pt)) + " can move to " + square_name(to), 0, 1});
    }
    return pos.make_move(sel[0], to, w.promote);
}

}  // namespace

Result<Move, ParseError> parse_ki2_move(const Position& pos, std::string_view text, Move previous) {
    std::string_view s = text;
    auto mark = read_side_mark(s);
    std::string_view token = trim_spaces(text);
    if (mark && *mark != pos.side_to_move())
        return core::unexpected(ParseError{ParseErrorCode::BadMove,
                                           std::string(token) + ": " + (*mark == core::BLACK ? "Black" : "White")
                                               + "'s mark but the other side is to move",
                                           0, 1});
    auto target = read_target(text, s, previous, token);
    if (!target)
        return core::unexpected(target.error());
    auto [to, pt, at_piece] = *target;
    Ki2Words w = read_ki2_words(s);
    std::optional<Square> from;
    if (!w.drop && consume(s, "(")) {  // old tools append the source square
        from = read_source(s);
        if (!from)
            return core::unexpected(
                error_at(text, s, ParseErrorCode::BadMove, std::string(token) + ": bad source square"));
    }
    if (std::string_view trailing = skip_spaces(s); !trailing.empty())
        return core::unexpected(
            error_at(text, trailing, ParseErrorCode::BadMove, std::string(token) + ": unexpected text"));
    Move m;
    if (w.drop) {
        if (pt > core::GOLD)
            return core::unexpected(error_at(text, at_piece, ParseErrorCode::BadMove,
                                             std::string(token) + ": only unpromoted pieces are dropped"));
        m = pos.make_drop(pt, to);
    } else if (from) {
        m = pos.make_move(*from, to, w.promote);
    } else {
        auto r = resolve_ki2(pos, token, pt, to, w);
        if (!r)
            return r;
        m = *r;
    }
    if (auto r = pos.check_move(m); !r)
        return core::unexpected(illegal(pos, token, m, r.error()));
    return m;
}

// --- results

std::optional<RecordResult> result_from_special(std::string_view word, Color stm) {
    using core::EndReason;
    using core::Winner;
    Winner me = core::winner_of(stm), them = core::winner_of(~stm);
    auto make = [](Winner w, EndReason r, std::optional<Color> actor) {
        RecordResult x;
        x.winner = w;
        x.reason = r;
        x.actor = actor;
        return x;
    };
    if (word == "投了")
        return make(them, EndReason::Resignation, stm);
    if (word == "中断")
        return make(Winner::None, EndReason::Abort, stm);
    if (word == "千日手")
        return make(Winner::Draw, EndReason::Sennichite, std::nullopt);
    if (word == "持将棋")
        return make(Winner::Draw, EndReason::ImpasseCount, std::nullopt);
    if (word == "詰み" || word == "詰")
        return make(them, EndReason::Checkmate, std::nullopt);
    if (word == "不詰")
        return RecordResult{};
    if (word == "切れ負け" || word == "時間切れ")
        return make(them, EndReason::TimeUp, stm);
    if (word == "反則勝ち")
        return make(me, EndReason::IllegalMove, ~stm);
    if (word == "反則負け")
        return make(them, EndReason::IllegalMove, stm);
    if (word == "入玉勝ち" || word == "トライ")
        return make(me, EndReason::Declaration, stm);
    if (word == "不戦勝")
        return make(me, EndReason::Abort, std::nullopt);
    if (word == "不戦敗")
        return make(them, EndReason::Abort, std::nullopt);
    if (word == "封じ手")
        return make(Winner::None, EndReason::SealedMove, stm);
    return std::nullopt;
}

std::string_view special_word(const RecordResult& r, Color stm) {
    using core::EndReason;
    bool stm_wins = r.winner == core::winner_of(stm);
    switch (r.reason) {
    case EndReason::None: return "";
    case EndReason::Resignation: return "投了";
    case EndReason::Checkmate:
    case EndReason::NoLegalMoves: return "詰み";
    case EndReason::Sennichite: return "千日手";
    case EndReason::PerpetualCheck:
    case EndReason::IllegalMove: return stm_wins ? "反則勝ち" : "反則負け";
    case EndReason::Declaration: return "入玉勝ち";
    case EndReason::ImpasseCount:
    case EndReason::MoveLimit: return "持将棋";
    case EndReason::TimeUp: return "切れ負け";
    case EndReason::Abort:
    case EndReason::Disconnect:  // Kakinoki has no word for it: the forfeit's (the summary says why)
        return stm_wins ? "不戦勝" : r.winner == core::winner_of(~stm) ? "不戦敗" : "中断";
    case EndReason::SealedMove: return "封じ手";
    case EndReason::Adjudication: return "中断";  // play stopped; the result is the summary's
    }
    return "";
}

std::string summary_text(const RecordResult& r, int moves, Color stm, bool handicap) {
    using core::EndReason;
    std::string_view word = special_word(r, stm);
    if (word.empty())
        return {};
    std::string s = "まで" + std::to_string(moves) + "手で";
    bool decided = r.winner == core::Winner::Black || r.winner == core::Winner::White;
    Color winner = r.winner == core::Winner::White ? core::WHITE : core::BLACK;
    std::string stm_name(side_name(stm, handicap));
    switch (r.reason) {
    case EndReason::Resignation:
        return s + (decided ? std::string(side_name(winner, handicap)) + "の勝ち" : std::string(word));
    case EndReason::TimeUp:
        return s
             + (decided ? "時間切れにより" + std::string(side_name(winner, handicap)) + "の勝ち" : std::string(word));
    case EndReason::Disconnect:
        return s
             + (decided ? "接続切れにより" + std::string(side_name(winner, handicap)) + "の勝ち" : std::string(word));
    case EndReason::PerpetualCheck:
    case EndReason::IllegalMove:
    case EndReason::Declaration: return s + stm_name + "の" + std::string(word);
    default: return s + std::string(word);
    }
}

namespace {
std::optional<Color> read_side_name(std::string_view& s) {
    if (consume(s, "先手") || consume(s, "下手"))
        return core::BLACK;
    if (consume(s, "後手") || consume(s, "上手"))
        return core::WHITE;
    return std::nullopt;
}

RecordResult result_of(core::Winner w, core::EndReason r, std::optional<Color> actor) {
    RecordResult x;
    x.winner = w;
    x.reason = r;
    x.actor = actor;
    return x;
}
}  // namespace

std::optional<RecordResult> result_from_summary(std::string_view line, Color stm) {
    using core::EndReason;
    std::string_view s = trim_spaces(line);
    if (!consume(s, "まで"))
        return std::nullopt;
    consume(s, "、");
    while (read_arabic_digit(s)) {}
    consume(s, "手");
    consume(s, "で");
    s = trim_spaces(s);
    bool on_time = consume(s, "時間切れにより");
    bool disconnected = !on_time && consume(s, "接続切れにより");
    if (auto side = read_side_name(s)) {
        core::Winner me = core::winner_of(*side), them = core::winner_of(~*side);
        if (s == "の勝ち")
            return result_of(me,
                             on_time        ? EndReason::TimeUp
                             : disconnected ? EndReason::Disconnect
                                            : EndReason::Resignation,
                             ~*side);
        if (s == "の反則勝ち")
            return result_of(me, EndReason::IllegalMove, ~*side);
        if (s == "の反則負け")
            return result_of(them, EndReason::IllegalMove, *side);
        if (s == "の入玉勝ち")
            return result_of(me, EndReason::Declaration, *side);
        return std::nullopt;
    }
    auto r = result_from_special(s, stm);
    if (!r || r->reason == EndReason::None)
        return std::nullopt;
    return r;
}

}  // namespace hisha::notation
