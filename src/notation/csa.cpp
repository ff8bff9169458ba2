// CSA records: a reader that splits lines into statements, builds the start position from
// PI / P1..P9 / P+ P-, and checks every move through the core as it goes; and a deterministic
// writer for V2.2 and V3.0.
#include "csa.h"

#include <cstdio>

#include <algorithm>
#include <array>
#include <optional>

#include "encoding.h"

namespace hisha::notation {

using core::Color;
using core::Move;
using core::Piece;
using core::PieceType;
using core::Square;

namespace {

// After %CHUDAN, the comment that says whose connection was lost and so who lost the game:
// '+ disconnected (Black's) or '- disconnected (White's).
constexpr std::string_view DISCONNECT_COMMENT = " disconnected";

// --- piece codes and squares

// Indexed by PieceType: the unpromoted codes follow the core's order (FU..KI, OU), then the
// promoted ones.
constexpr std::array<std::string_view, core::PIECE_TYPE_NB> CSA_NAMES = {"",   "FU", "KY", "KE", "GI", "KA", "HI", "KI",
                                                                         "OU", "TO", "NY", "NK", "NG", "UM", "RY"};

PieceType piece_from_csa(std::string_view s) {
    for (int pt = core::PAWN; pt < core::PIECE_TYPE_NB; ++pt)
        if (CSA_NAMES[pt] == s)
            return PieceType(pt);
    return core::NO_PIECE_TYPE;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "77" -> SQ_77; nullopt unless both digits are 1..9.
std::optional<Square> square_from_csa(char file, char rank) {
    if (file < '1' || file > '9' || rank < '1' || rank > '9')
        return std::nullopt;
    return core::make_square(core::File(file - '1'), core::Rank(rank - '1'));
}

std::string csa_square(Square s) { return {char('1' + core::file_of(s)), char('1' + core::rank_of(s))}; }

const char* color_name(Color c) { return c == core::BLACK ? "Black" : "White"; }

core::Unexpected<ParseError> fail(ParseErrorCode code, std::string message, int line, int column) {
    return core::unexpected(ParseError{code, std::move(message), line, column});
}

// --- time values

// "12" or "1.234" seconds to milliseconds (a fourth decimal rounds); nullopt if malformed or
// beyond what an int holds in milliseconds.
std::optional<int> parse_seconds(std::string_view s) {
    constexpr long long MAX_SECONDS = 2'000'000;
    std::size_t i = 0;
    long long secs = 0;
    while (i < s.size() && is_digit(s[i]) && secs <= MAX_SECONDS)
        secs = secs * 10 + (s[i++] - '0');
    if (i == 0 || secs > MAX_SECONDS)
        return std::nullopt;
    int ms = 0;
    if (i < s.size() && s[i] == '.') {
        std::size_t first = ++i;
        for (; i < s.size() && is_digit(s[i]); ++i) {
            std::size_t place = i - first;  // 0: tenths, 1: hundredths, 2: thousandths
            if (place < 3)
                ms += (s[i] - '0') * (place == 0 ? 100 : place == 1 ? 10 : 1);
            else if (place == 3 && s[i] >= '5')
                ++ms;
        }
        if (i == first)
            return std::nullopt;
    }
    if (i != s.size())
        return std::nullopt;
    return int(secs * 1000 + ms);
}

// --- special moves

// What a `%` line means for the result; `stm` is the side to move when it is read.
std::optional<RecordResult> special_result(std::string_view name, Color stm) {
    using core::EndReason;
    using core::Winner;
    Winner mover_wins = core::winner_of(stm), mover_loses = core::winner_of(~stm);
    if (name == "TORYO")
        return RecordResult{mover_loses, EndReason::Resignation, stm, {}};
    if (name == "TIME_UP")
        return RecordResult{mover_loses, EndReason::TimeUp, stm, {}};
    if (name == "ILLEGAL_MOVE")
        return RecordResult{mover_loses, EndReason::IllegalMove, stm, {}};
    if (name == "+ILLEGAL_ACTION")
        return RecordResult{Winner::White, EndReason::IllegalMove, core::BLACK, {}};
    if (name == "-ILLEGAL_ACTION")
        return RecordResult{Winner::Black, EndReason::IllegalMove, core::WHITE, {}};
    if (name == "KACHI")
        return RecordResult{mover_wins, EndReason::Declaration, stm, {}};
    if (name == "HIKIWAKE")
        return RecordResult{Winner::Draw, EndReason::Declaration, stm, {}};
    if (name == "SENNICHITE")
        return RecordResult{Winner::Draw, EndReason::Sennichite, {}, {}};
    if (name == "JISHOGI")
        return RecordResult{Winner::Draw, EndReason::ImpasseCount, {}, {}};
    if (name == "MAX_MOVES")
        return RecordResult{Winner::Draw, EndReason::MoveLimit, {}, {}};
    if (name == "TSUMI")
        return RecordResult{mover_loses, EndReason::Checkmate, {}, {}};
    // An interruption by the side to move. No mate (tsume), error and take-back have no
    // EndReason of their own and read as one too.
    if (name == "CHUDAN" || name == "FUZUMI" || name == "ERROR" || name == "MATTA")
        return RecordResult{Winner::None, EndReason::Abort, stm, {}};
    return std::nullopt;
}

// --- reader

// One statement: a whole line, or one of several separated by ',' on a line.
struct Statement {
    std::string_view text;
    int line;
    int column;
};

using Status = Result<void, ParseError>;

// Calls `f(item, column)` on each four-character item of a `PI`, `P+` or `P-` line (a square and
// a piece name, `82HI`) in order, up to the first error; `incomplete` is the message for a last
// item cut short.
template <class F>
Status for_each_piece_item(const Statement& s, const char* incomplete, F f) {
    std::string_view t = s.text;
    for (std::size_t i = 2; i < t.size(); i += 4) {
        int col = s.column + int(i);
        if (i + 4 > t.size())
            return fail(ParseErrorCode::BadBoard, incomplete, s.line, col);
        if (Status r = f(t.substr(i, 4), col); !r)
            return r;
    }
    return {};
}

// Reads one record statement by statement: header, then the start position up to the side
// line (set up through the core), then moves, times and comments, until the first special.
class CsaReader {
public:
    Result<GameRecord, ParseError> read(std::string_view text);

private:
    enum class Phase { Header, Position, Moves, Ended };
    enum class Timed { Nothing, Move, Special };

    Status read_line(std::string_view line, int line_no);
    Status statement(const Statement& s);
    Status dispatch(const Statement& s);
    Status version(const Statement& s);
    Status name(const Statement& s);
    Status info(const Statement& s);
    Status position_line(const Statement& s);
    Status pi_line(const Statement& s);
    Status rank_line(const Statement& s);
    Status piece_list(const Statement& s);
    Status side_line(const Statement& s);
    Status move(const Statement& s);
    Status time(const Statement& s);
    Status special(const Statement& s);
    Status before_moves(const Statement& s, const char* what) const;
    void comment(std::string_view text);
    void give_all_remaining(Color c);
    Status finish(int line) const;

    GameRecord rec_;
    Phase phase_ = Phase::Header;
    bool seen_data_ = false;  // a statement other than a comment was read
    // The start position as it is built.
    Piece board_[core::SQ_NB] = {};
    core::Hand hands_[core::COLOR_NB];
    bool used_pi_ = false, used_rows_ = false, used_lists_ = false;
    bool rows_seen_[9] = {};
    std::optional<Color> all_to_;  // `00AL`: the remaining pieces go to this hand
    std::unique_ptr<core::Position> pos_;
    // What a following `T` line times.
    Timed timed_ = Timed::Nothing;
    int special_line_ = 0;
};

Result<GameRecord, ParseError> CsaReader::read(std::string_view text) {
    int line_no = 0;
    for (std::size_t at = 0; at <= text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        ++line_no;
        // Forgiving on line ends (CR LF, "\r\r\n") and trailing blanks.
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        // The V3 encoding line (or Kifu for Windows' `'encoding=...`) is not a comment.
        if (line_no == 1 && line.starts_with('\'') && line.find("encoding=") != std::string_view::npos)
            continue;
        // Several records in one file: only the first is read.
        if (line == "/")
            break;
        if (auto r = read_line(line, line_no); !r)
            return core::unexpected(r.error());
    }
    if (auto r = finish(line_no); !r)
        return core::unexpected(r.error());
    return std::move(rec_);
}

// Comment, name and info lines are single statements; others may hold several separated by
// ',' (`+7776FU,T12`), where a `'` statement runs to the end of the line
// (`%KACHI,'* -5000 win`).
Status CsaReader::read_line(std::string_view line, int line_no) {
    if (line.empty())
        return {};
    if (line[0] == '\'' || line[0] == 'N' || line[0] == '$')
        return statement({line, line_no, 1});
    std::size_t start = 0;
    while (start < line.size()) {
        while (start < line.size() && (line[start] == ' ' || line[start] == '\t'))
            ++start;
        std::size_t comma = start < line.size() && line[start] == '\'' ? std::string_view::npos : line.find(',', start);
        std::size_t end = comma == std::string_view::npos ? line.size() : comma;
        std::string_view part = line.substr(start, end - start);
        while (!part.empty() && (part.back() == ' ' || part.back() == '\t'))
            part.remove_suffix(1);
        if (!part.empty())
            if (auto r = statement({part, line_no, int(start) + 1}); !r)
                return r;
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return {};
}

Status CsaReader::statement(const Statement& s) {
    if (s.text[0] == '\'') {
        comment(s.text.substr(1));
        return {};
    }
    Status r = dispatch(s);
    seen_data_ = true;
    return r;
}

Status CsaReader::dispatch(const Statement& s) {
    switch (s.text[0]) {
    case 'V': return version(s);
    case 'N': return name(s);
    case '$': return info(s);
    case 'P': return position_line(s);
    case '+':
    case '-': return s.text.size() == 1 ? side_line(s) : move(s);
    case 'T': return time(s);
    case '%': return special(s);
    default: return fail(ParseErrorCode::BadMove, "unknown statement '" + std::string(s.text) + "'", s.line, s.column);
    }
}

Status CsaReader::version(const Statement& s) {
    static constexpr std::string_view KNOWN[] = {"V2", "V2.1", "V2.2", "V3.0"};
    if (std::find(std::begin(KNOWN), std::end(KNOWN), s.text) == std::end(KNOWN))
        return fail(ParseErrorCode::Unsupported,
                    "unsupported version '" + std::string(s.text) + "' (V2, V2.1, V2.2 and V3.0 are read)", s.line,
                    s.column);
    if (seen_data_ || phase_ != Phase::Header)
        return fail(ParseErrorCode::BadHeader, "the version line must come before the record", s.line, s.column);
    return {};
}

Status CsaReader::name(const Statement& s) {
    if (s.text.size() < 2 || (s.text[1] != '+' && s.text[1] != '-'))
        return fail(ParseErrorCode::BadHeader, "a name line starts with N+ (Black) or N- (White)", s.line, s.column);
    if (s.text.size() > 2)
        rec_.set_header(s.text[1] == '+' ? key::BLACK : key::WHITE, std::string(s.text.substr(2)));
    return {};
}

// `$KEY:value`. The keys every format shares are mapped; others keep their `$` name.
Status CsaReader::info(const Statement& s) {
    std::size_t colon = s.text.find(':');
    if (colon == std::string_view::npos || colon < 2)
        return fail(ParseErrorCode::BadHeader, "an information line is $KEY:value", s.line, s.column);
    std::string_view k = s.text.substr(1, colon - 1);
    std::string value(s.text.substr(colon + 1));
    static constexpr std::pair<std::string_view, std::string_view> COMMON[] = {
        {"EVENT", key::EVENT},
        {"SITE", key::SITE},
        {"START_TIME", key::START_TIME},
        {"END_TIME", key::END_TIME},
        {"TIME_LIMIT", key::TIME_CONTROL},
        {"TIME", key::TIME_CONTROL},
        {"OPENING", key::OPENING},
        {"NOTE", key::NOTE},
    };
    for (const auto& [csa, common] : COMMON)
        if (k == csa) {
            rec_.set_header(common, std::move(value));
            return {};
        }
    rec_.set_header(s.text.substr(0, colon), std::move(value));
    return {};
}

Status CsaReader::before_moves(const Statement& s, const char* what) const {
    if (phase_ == Phase::Moves || phase_ == Phase::Ended)
        return fail(ParseErrorCode::BadBoard, std::string(what) + " after the side-to-move line", s.line, s.column);
    return {};
}

Status CsaReader::position_line(const Statement& s) {
    if (auto r = before_moves(s, "a position line"); !r)
        return r;
    phase_ = Phase::Position;
    char k = s.text.size() > 1 ? s.text[1] : '\0';
    if (k == 'I')
        return pi_line(s);
    if (k >= '1' && k <= '9')
        return rank_line(s);
    if (k == '+' || k == '-')
        return piece_list(s);
    return fail(ParseErrorCode::BadBoard, "a position line is PI, P1..P9, P+ or P-", s.line, s.column);
}

// `PI82HI22KA`: the even start without the listed pieces.
Status CsaReader::pi_line(const Statement& s) {
    if (used_pi_ || used_rows_ || used_lists_)
        return fail(ParseErrorCode::BadBoard, "PI must be the first and only bulk position line", s.line, s.column);
    used_pi_ = true;
    core::Position even;
    for (Square sq = core::SQ_11; sq < core::SQ_NB; ++sq)
        board_[sq] = even.piece_on(sq);
    return for_each_piece_item(
        s, "PI: a removed piece is a square and a piece name, like 82HI",
        [&](std::string_view item, int col) -> Status {
            auto sq = square_from_csa(item[0], item[1]);
            if (!sq)
                return fail(ParseErrorCode::BadBoard, "PI: bad square '" + std::string(item.substr(0, 2)) + "'", s.line,
                            col);
            PieceType pt = piece_from_csa(item.substr(2, 2));
            if (pt == core::NO_PIECE_TYPE)
                return fail(ParseErrorCode::BadBoard, "PI: unknown piece '" + std::string(item.substr(2, 2)) + "'",
                            s.line, col + 2);
            if (!board_[*sq] || core::type_of(board_[*sq]) != pt)
                return fail(ParseErrorCode::BadBoard,
                            "PI: there is no " + std::string(CSA_NAMES[pt]) + " on " + csa_square(*sq) + " to remove",
                            s.line, col);
            board_[*sq] = core::NO_PIECE;
            return {};
        });
}

// `P1-KY-KE-GI-KI-OU-KI-GI-KE-KY`: nine cells from file 9 to file 1, ` * ` for an empty one.
// Blanks between cells are skipped, so squeezed (` * * `) and trimmed rows read too.
Status CsaReader::rank_line(const Statement& s) {
    if (used_pi_)
        return fail(ParseErrorCode::BadBoard, "PI and P1..P9 cannot both describe the board", s.line, s.column);
    int rank = s.text[1] - '1';
    if (rows_seen_[rank])
        return fail(ParseErrorCode::BadBoard, "rank " + std::to_string(rank + 1) + " is given twice", s.line, s.column);
    rows_seen_[rank] = used_rows_ = true;
    std::string_view t = s.text;
    std::size_t i = 2;
    for (int file = 8; file >= 0; --file) {
        while (i < t.size() && t[i] == ' ')
            ++i;
        int col = s.column + int(i);
        if (i >= t.size())
            return fail(ParseErrorCode::BadBoard,
                        "rank " + std::to_string(rank + 1) + " has " + std::to_string(8 - file)
                            + " squares, expected 9",
                        s.line, col);
        Square sq = core::make_square(core::File(file), core::Rank(rank));
        if (t[i] == '*') {
            board_[sq] = core::NO_PIECE;
            ++i;
            continue;
        }
        if ((t[i] != '+' && t[i] != '-') || i + 3 > t.size())
            return fail(ParseErrorCode::BadBoard, "a square is ' * ', or '+' or '-' and a piece name", s.line, col);
        PieceType pt = piece_from_csa(t.substr(i + 1, 2));
        if (pt == core::NO_PIECE_TYPE)
            return fail(ParseErrorCode::BadBoard, "unknown piece '" + std::string(t.substr(i + 1, 2)) + "'", s.line,
                        col + 1);
        board_[sq] = core::make_piece(t[i] == '+' ? core::BLACK : core::WHITE, pt);
        i += 3;
    }
    while (i < t.size() && t[i] == ' ')
        ++i;
    if (i < t.size())
        return fail(ParseErrorCode::BadBoard, "unexpected text after the ninth square", s.line, s.column + int(i));
    return {};
}

// `P+99KY89KE`, `P-00FU00FU` (hand), `P-00AL` (every piece not placed yet, to that hand).
Status CsaReader::piece_list(const Statement& s) {
    used_lists_ = true;
    Color c = s.text[1] == '+' ? core::BLACK : core::WHITE;
    return for_each_piece_item(
        s, "a piece is a square and a piece name, like 99KY or 00FU", [&](std::string_view item, int col) -> Status {
            std::string_view code = item.substr(2, 2);
            if (item == "00AL") {
                if (all_to_)
                    return fail(ParseErrorCode::BadHand, "00AL is given twice", s.line, col);
                all_to_ = c;
                return {};
            }
            PieceType pt = piece_from_csa(code);
            if (pt == core::NO_PIECE_TYPE)
                return fail(ParseErrorCode::BadBoard, "unknown piece '" + std::string(code) + "'", s.line, col + 2);
            if (item.starts_with("00")) {
                if (pt > core::GOLD)
                    return fail(ParseErrorCode::BadHand, std::string(code) + " cannot be held in hand", s.line,
                                col + 2);
                if (hands_[c].count(pt) == core::Hand::MAX[pt])
                    return fail(ParseErrorCode::BadHand, "more " + std::string(code) + " in hand than a set holds",
                                s.line, col);
                hands_[c].add(pt);
                return {};
            }
            auto sq = square_from_csa(item[0], item[1]);
            if (!sq)
                return fail(ParseErrorCode::BadBoard, "bad square '" + std::string(item.substr(0, 2)) + "'", s.line,
                            col);
            if (board_[*sq])
                return fail(ParseErrorCode::BadBoard, "square " + csa_square(*sq) + " is already occupied", s.line,
                            col);
            board_[*sq] = core::make_piece(c, pt);
            return {};
        });
}

void CsaReader::give_all_remaining(Color c) {
    int used[core::HAND_TYPE_NB] = {};
    for (Piece pc : board_)
        if (pc && core::unpromote(core::type_of(pc)) != core::KING)
            ++used[core::unpromote(core::type_of(pc))];
    for (int pt = core::PAWN; pt <= core::GOLD; ++pt) {
        used[pt] += hands_[core::BLACK].count(PieceType(pt)) + hands_[core::WHITE].count(PieceType(pt));
        hands_[c].add(PieceType(pt), std::max(0, core::Hand::MAX[pt] - used[pt]));
    }
}

// `+` or `-`: the start position is complete; set it up through the core.
Status CsaReader::side_line(const Statement& s) {
    if (auto r = before_moves(s, "a second side-to-move line"); !r)
        return r;
    if (all_to_)
        give_all_remaining(*all_to_);
    std::string sfen = core::board_sfen(board_) + (s.text[0] == '+' ? " b " : " w ") + core::hands_sfen(hands_) + " 1";
    pos_ = std::make_unique<core::Position>();
    if (auto r = pos_->set(sfen); !r)
        return fail(ParseErrorCode::IllegalPosition, "start position: " + r.error().message, s.line, s.column);
    if (auto h = core::handicap_from_sfen(sfen))
        rec_.set_handicap(*h);
    else
        rec_.start_sfen = pos_->sfen();
    phase_ = Phase::Moves;
    return {};
}

Status CsaReader::move(const Statement& s) {
    if (phase_ == Phase::Header || phase_ == Phase::Position)
        return fail(ParseErrorCode::BadMove,
                    std::string(s.text) + ": a move before the '+' or '-' line that ends the start position", s.line,
                    s.column);
    if (phase_ == Phase::Ended)
        return fail(ParseErrorCode::BadMove,
                    std::string(s.text) + ": a move after the game ended (line " + std::to_string(special_line_) + ")",
                    s.line, s.column);
    auto m = parse_csa_move(*pos_, s.text);
    if (!m) {
        ParseError e = m.error();
        e.line = s.line;
        e.column += s.column - 1;
        return core::unexpected(std::move(e));
    }
    pos_->play(*m);
    rec_.moves.push_back(MoveRecord{*m, {}, {}, {}});
    timed_ = Timed::Move;
    return {};
}

Status CsaReader::time(const Statement& s) {
    if (phase_ == Phase::Header || phase_ == Phase::Position || timed_ == Timed::Nothing)
        return fail(ParseErrorCode::BadMove, "a time with no move before it", s.line, s.column);
    std::optional<int>& target = timed_ == Timed::Move ? rec_.moves.back().time_ms : rec_.result.time_ms;
    if (target)
        return fail(ParseErrorCode::BadMove, "a second time for the same move", s.line, s.column);
    auto ms = parse_seconds(s.text.substr(1));
    if (!ms)
        return fail(ParseErrorCode::BadMove,
                    "a time is T and seconds, like T12 or T1.5, found '" + std::string(s.text) + "'", s.line, s.column);
    target = *ms;
    return {};
}

Status CsaReader::special(const Statement& s) {
    if (phase_ == Phase::Header || phase_ == Phase::Position)
        return fail(ParseErrorCode::BadMove,
                    std::string(s.text) + ": a special move before the '+' or '-' line that ends the start position",
                    s.line, s.column);
    auto result = special_result(s.text.substr(1), pos_->side_to_move());
    if (!result)
        return fail(ParseErrorCode::BadMove, "unknown special move '" + std::string(s.text) + "'", s.line, s.column);
    if (phase_ == Phase::Ended)
        return {};  // the first special is the result (Floodgate logs repeat %KACHI)
    rec_.result = *result;
    phase_ = Phase::Ended;
    timed_ = Timed::Special;
    special_line_ = s.line;
    return {};
}

void CsaReader::comment(std::string_view text) {
    // "'+ disconnected" right after %CHUDAN: the game ended by that side's lost connection.
    if (phase_ == Phase::Ended && rec_.result.reason == core::EndReason::Abort && text.size() > 1
        && (text[0] == '+' || text[0] == '-') && text.substr(1) == DISCONNECT_COMMENT) {
        rec_.result.reason = core::EndReason::Disconnect;
        rec_.result.winner = text[0] == '+' ? core::Winner::White : core::Winner::Black;
        rec_.result.actor = text[0] == '+' ? core::BLACK : core::WHITE;
        return;
    }
    if (rec_.moves.empty())
        rec_.start_comments.emplace_back(text);
    else
        rec_.moves.back().comments.emplace_back(text);
}

Status CsaReader::finish(int line) const {
    if (phase_ == Phase::Header && !used_pi_ && !used_rows_ && !used_lists_)
        return fail(seen_data_ ? ParseErrorCode::MissingField : ParseErrorCode::Empty,
                    "no start position (PI or P1..P9, then '+' or '-')", line, 1);
    if (phase_ == Phase::Header || phase_ == Phase::Position)
        return fail(ParseErrorCode::MissingField, "the start position is not followed by a '+' or '-' line", line, 1);
    return {};
}

}  // namespace

// --- moves

std::string format_csa_move(Move m) {
    if (!m.is_ok())
        return {};
    Piece after = m.piece_after();
    std::string s(1, core::color_of(after) == core::BLACK ? '+' : '-');
    s += m.is_drop() ? "00" : csa_square(m.from());
    s += csa_square(m.to());
    s += CSA_NAMES[core::type_of(after)];
    return s;
}

Result<Move, ParseError> parse_csa_move(const core::Position& pos, std::string_view text) {
    auto bad = [&](std::string reason, int col) {
        return core::unexpected(ParseError{ParseErrorCode::BadMove, std::string(text) + ": " + reason, 0, col});
    };
    if (text.empty() || (text[0] != '+' && text[0] != '-'))
        return bad("a move starts with + or -", 1);
    if (text.size() < 7)
        return bad("a move is a sign, four digits and a piece name, like +7776FU", 1);
    if (text.size() > 7)
        return bad("unexpected text after the move (statements on one line are separated by ',')", 8);
    Color c = text[0] == '+' ? core::BLACK : core::WHITE;
    for (int i = 1; i <= 4; ++i)
        if (!is_digit(text[i]))
            return bad("a square is two digits", i + 1);
    auto to = square_from_csa(text[3], text[4]);
    if (!to)
        return bad("bad destination square '" + std::string(text.substr(3, 2)) + "'", 4);
    PieceType pt = piece_from_csa(text.substr(5, 2));
    if (pt == core::NO_PIECE_TYPE)
        return bad("unknown piece '" + std::string(text.substr(5, 2)) + "'", 6);
    if (c != pos.side_to_move())
        return core::unexpected(
            move_error(0, 1, text, std::string("it is ") + color_name(pos.side_to_move()) + "'s move"));
    Move m;
    if (text[1] == '0' && text[2] == '0') {
        if (pt > core::GOLD)
            return core::unexpected(move_error(0, 6, text, std::string(CSA_NAMES[pt]) + " cannot be dropped"));
        m = pos.make_drop(pt, *to);
    } else {
        auto from = square_from_csa(text[1], text[2]);
        if (!from)
            return bad("bad origin square '" + std::string(text.substr(1, 2)) + "'", 2);
        Piece pc = pos.piece_on(*from);
        bool promote = false;
        // The name is the piece after the move: the piece on the square, or its promoted form.
        if (pc && core::color_of(pc) == c && core::type_of(pc) != pt) {
            PieceType on = core::type_of(pc);
            if (!core::can_promote(on) || core::promote(on) != pt)
                return core::unexpected(move_error(0, 6, text,
                                                   "the piece on " + csa_square(*from) + " is "
                                                       + std::string(CSA_NAMES[on]) + ", not "
                                                       + std::string(CSA_NAMES[pt])));
            promote = true;
        }
        m = pos.make_move(*from, *to, promote);
    }
    if (auto r = pos.check_move(m); !r)
        return core::unexpected(move_error(0, 1, text, explain_illegal(pos, m, r.error())));
    return m;
}

Result<GameRecord, ParseError> read_csa(std::string_view bytes) {
    Decoded text = to_utf8(bytes, detect_encoding(bytes));
    return CsaReader().read(text.text);
}

// --- writer

namespace {

// Header values and comments must stay on one line.
std::string one_line(std::string_view s) {
    std::string out(s);
    std::replace_if(
        out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return out;
}

bool is_number(std::string_view s, bool allow_point) {
    bool any = false;
    for (char c : s) {
        if (c == '.' && allow_point)
            allow_point = false;
        else if (!is_digit(c))
            return false;
        else
            any = true;
    }
    return any;
}

// "HH:MM+SS" is V2.2's $TIME_LIMIT, "total+byoyomi+increment" V3.0's $TIME.
std::string time_control_line(std::string_view v) {
    std::size_t colon = v.find(':'), plus = v.find('+');
    if (colon != std::string_view::npos && plus != std::string_view::npos && colon < plus
        && is_number(v.substr(0, colon), false) && is_number(v.substr(colon + 1, plus - colon - 1), false)
        && is_number(v.substr(plus + 1), false))
        return "$TIME_LIMIT:" + std::string(v);
    std::size_t plus2 = plus == std::string_view::npos ? plus : v.find('+', plus + 1);
    if (plus2 != std::string_view::npos && is_number(v.substr(0, plus), true)
        && is_number(v.substr(plus + 1, plus2 - plus - 1), true) && is_number(v.substr(plus2 + 1), true))
        return "$TIME:" + std::string(v);
    return {};
}

void write_headers(const GameRecord& rec, std::string& out) {
    if (auto b = rec.header(key::BLACK); !b.empty())
        out += "N+" + one_line(b) + '\n';
    if (auto w = rec.header(key::WHITE); !w.empty())
        out += "N-" + one_line(w) + '\n';
    static constexpr std::pair<std::string_view, std::string_view> COMMON[] = {
        {key::EVENT, "$EVENT:"},       {key::SITE, "$SITE:"},       {key::START_TIME, "$START_TIME:"},
        {key::END_TIME, "$END_TIME:"}, {key::OPENING, "$OPENING:"}, {key::NOTE, "$NOTE:"},
    };
    for (const Header& h : rec.headers) {
        std::string line;
        for (const auto& [common, csa] : COMMON)
            if (h.key == common)
                line = std::string(csa) + h.value;
        if (h.key == key::TIME_CONTROL)
            line = time_control_line(h.value);
        else if (h.key.size() > 1 && h.key[0] == '$' && h.key.find(':') == std::string::npos)
            line = h.key + ':' + h.value;
        if (!line.empty())
            out += one_line(line) + '\n';
    }
}

// The pieces a standard handicap removes from the even start, in the usual order (rook,
// bishop, gold, silver, knight, lance, pawn; file 1 first); nullopt if the position is not
// the even start less some pieces.
std::optional<std::string> pi_removals(const core::Position& pos) {
    if (!pos.hand(core::BLACK).empty() || !pos.hand(core::WHITE).empty())
        return std::nullopt;
    core::Position even;
    std::vector<std::pair<int, Square>> removed;
    static constexpr int ORDER[core::HAND_TYPE_NB + 1] = {9, 6, 5, 4, 3, 1, 0, 2, 7};  // by PieceType
    for (Square s = core::SQ_11; s < core::SQ_NB; ++s) {
        Piece want = even.piece_on(s), have = pos.piece_on(s);
        if (have == want)
            continue;
        if (have)
            return std::nullopt;
        removed.emplace_back(ORDER[core::type_of(want)], s);
    }
    std::sort(removed.begin(), removed.end());
    std::string out;
    for (auto [order, s] : removed)
        out += csa_square(s) + std::string(CSA_NAMES[core::type_of(even.piece_on(s))]);
    return out;
}

void write_start(const GameRecord& rec, std::string& out) {
    auto pos = start_position(rec);
    std::optional<std::string> removed;
    if (core::handicap_from_sfen(pos->sfen()))
        removed = pi_removals(*pos);
    if (removed) {
        out += "PI";
        out += *removed;
        out += '\n';
    } else {
        for (int r = 0; r < 9; ++r) {
            out += 'P';
            out += char('1' + r);
            for (int f = 8; f >= 0; --f) {
                Piece pc = pos->piece_on(core::make_square(core::File(f), core::Rank(r)));
                if (!pc) {
                    out += " * ";
                    continue;
                }
                out += core::color_of(pc) == core::BLACK ? '+' : '-';
                out += CSA_NAMES[core::type_of(pc)];
            }
            out += '\n';
        }
        for (Color c : {core::BLACK, core::WHITE}) {
            core::Hand h = pos->hand(c);
            if (h.empty())
                continue;
            out += c == core::BLACK ? "P+" : "P-";
            for (PieceType pt : core::HAND_ORDER)
                for (int i = 0; i < h.count(pt); ++i)
                    out += "00" + std::string(CSA_NAMES[pt]);
            out += '\n';
        }
    }
    out += pos->side_to_move() == core::BLACK ? "+\n" : "-\n";
}

std::string format_time(int ms, CsaVersion v) {
    if (ms < 0)
        ms = 0;
    char buf[32];
    if (v == CsaVersion::V3_0 && ms % 1000 != 0) {
        int n = std::snprintf(buf, sizeof buf, "T%d.%03d", ms / 1000, ms % 1000);
        while (n > 0 && buf[n - 1] == '0')  // "T1.250" -> "T1.25"
            buf[--n] = '\0';
    } else
        std::snprintf(buf, sizeof buf, "T%d", ms / 1000);
    return buf;
}

void write_comments(const std::vector<std::string>& comments, std::string& out) {
    for (const std::string& c : comments) {
        std::size_t at = 0;
        do {
            std::size_t end = c.find('\n', at);
            std::string_view line = std::string_view(c).substr(at, end == std::string::npos ? end : end - at);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            out += '\'';
            out += line;
            out += '\n';
            at = end == std::string::npos ? end : end + 1;
        } while (at != std::string::npos);
    }
}

// The loser of a decisive result, if the record says who it is.
std::optional<Color> loser_of(const RecordResult& r) {
    if (r.winner == core::Winner::Black)
        return core::WHITE;
    if (r.winner == core::Winner::White)
        return core::BLACK;
    return std::nullopt;
}

// The `%` line for a result, `stm` being the side to move after the last move. Endings CSA
// has no line for take the nearest one that keeps the winner: a perpetual check or a
// failed declaration is an illegal move or action, a sealed move an interruption. A lost
// connection is an interruption too, followed by the comment DISCONNECT_COMMENT that names
// the side whose connection was lost (the winner is the other; CsaReader reads it back).
std::string special_line(const RecordResult& r, Color stm, CsaVersion v) {
    using core::EndReason;
    auto illegal = [&](std::optional<Color> loser) {
        if (!loser || *loser == stm)
            return "%ILLEGAL_MOVE";
        return *loser == core::BLACK ? "%+ILLEGAL_ACTION" : "%-ILLEGAL_ACTION";
    };
    switch (r.reason) {
    case EndReason::None: return {};
    case EndReason::Resignation: return "%TORYO";
    case EndReason::TimeUp: return "%TIME_UP";
    case EndReason::Checkmate:
    case EndReason::NoLegalMoves: return "%TSUMI";
    case EndReason::Sennichite: return "%SENNICHITE";
    case EndReason::ImpasseCount: return "%JISHOGI";
    case EndReason::MoveLimit: return v == CsaVersion::V3_0 ? "%MAX_MOVES" : "%JISHOGI";
    case EndReason::Abort:
    case EndReason::SealedMove:
    case EndReason::Disconnect:
    case EndReason::Adjudication: return "%CHUDAN";
    case EndReason::PerpetualCheck: return illegal(loser_of(r));
    case EndReason::IllegalMove: return illegal(r.actor ? r.actor : loser_of(r));
    case EndReason::Declaration:
        if (r.winner == core::Winner::Draw)
            return "%HIKIWAKE";
        if (r.winner == core::winner_of(~stm))
            return illegal(stm);
        return "%KACHI";
    }
    return {};
}

}  // namespace

std::string write_csa(const GameRecord& rec, CsaVersion version) {
    std::string out = version == CsaVersion::V3_0 ? "V3.0\n" : "V2.2\n";
    write_headers(rec, out);
    write_start(rec, out);
    write_comments(rec.start_comments, out);
    Color stm = start_position(rec)->side_to_move();
    for (const MoveRecord& mr : rec.moves) {
        out += format_csa_move(mr.move) + '\n';
        if (mr.time_ms)
            out += format_time(*mr.time_ms, version) + '\n';
        write_comments(mr.comments, out);
        stm = ~stm;
    }
    if (std::string special = special_line(rec.result, stm, version); !special.empty()) {
        out += special + '\n';
        if (rec.result.time_ms)
            out += format_time(*rec.result.time_ms, version) + '\n';
        if (auto loser = loser_of(rec.result); loser && rec.result.reason == core::EndReason::Disconnect)
            out += std::string("'") + (*loser == core::BLACK ? "+" : "-") + std::string(DISCONNECT_COMMENT) + '\n';
    }
    // V3.0 always declares its encoding; V2.2 leaves it to the platform, so say it only when
    // it matters (Kifu for Windows writes the same line for Shift_JIS).
    bool ascii = std::all_of(out.begin(), out.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (version == CsaVersion::V3_0)
        out.insert(0, "'CSA encoding=UTF-8\n");
    else if (!ascii)
        out.insert(0, "'encoding=UTF-8\n");
    return out;
}

}  // namespace hisha::notation
