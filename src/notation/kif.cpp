// The Kakinoki reader (KIF and KI2) and the KIF writer. Reading classifies each line (program
// comment, header, BOD line, move, comment, bookmark, variation, summary); it is forgiving about
// layout (CR LF, stray CRs, blank lines, either colon) and strict about moves, each of which the
// core checks before the next is read. Variations are kept as paths from the main line so that
// growing vectors never leave a dangling pointer.
#include "kif.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "bod.h"
#include "japanese.h"

namespace hisha::notation {

using core::Color;
using core::Move;
using core::Position;

namespace detail {

namespace {

// Where a line of play sits: at each level, the move index in the parent line and the
// variation index at that move.
struct PathStep {
    std::size_t move;
    std::size_t variation;
};
using Path = std::vector<PathStep>;

// A line open for reading: the main line or a variation on the current path.
struct Frame {
    Path path;
    int start_ply;
    std::vector<bool> plus;  // KIF's '+' after a move: a variation branches at it
};

// The time column of a KIF move and the '+' that may follow it.
struct Tail {
    std::optional<int> time_ms;
    bool plus = false;
};

struct HeaderName {
    std::string_view japanese;
    std::string_view key;
};
constexpr HeaderName HEADER_NAMES[] = {
    {"先手", key::BLACK},          {"下手", key::BLACK},        {"後手", key::WHITE},
    {"上手", key::WHITE},          {"棋戦", key::EVENT},        {"場所", key::SITE},
    {"開始日時", key::START_TIME}, {"終了日時", key::END_TIME}, {"持ち時間", key::TIME_CONTROL},
    {"戦型", key::OPENING},        {"表題", key::TITLE},        {"備考", key::NOTE},
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int column_of(std::string_view line, std::string_view rest) {
    return code_point_count(line.substr(0, line.size() - rest.size())) + 1;
}

// Up to 6 ASCII digits (more would overflow nothing useful).
std::optional<int> read_int(std::string_view& s) {
    int v = 0, n = 0;
    while (!s.empty() && is_digit(s[0])) {
        if (++n > 6)
            return std::nullopt;
        v = v * 10 + (s[0] - '0');
        s.remove_prefix(1);
    }
    return n ? std::optional<int>(v) : std::nullopt;
}

std::string_view skip_ascii_spaces(std::string_view s) {
    while (!s.empty() && (s[0] == ' ' || s[0] == '\t'))
        s.remove_prefix(1);
    return s;
}

// "( 0:16/00:00:16)", "(25:00/04:07:00)", "(00:31 / 00:00:31)", then an optional '+'.
std::optional<Tail> read_tail(std::string_view s) {
    Tail t;
    s = skip_spaces(s);
    if (consume(s, "(")) {
        s = skip_ascii_spaces(s);
        // Bounded so that sums over a whole game stay far from overflowing.
        auto minutes = read_int(s);
        if (!minutes || *minutes > 9999 || !consume(s, ":"))
            return std::nullopt;
        auto seconds = read_int(s);
        if (!seconds || *seconds > 99)
            return std::nullopt;
        t.time_ms = (*minutes * 60 + *seconds) * 1000;
        s = skip_ascii_spaces(s);
        if (consume(s, "/"))
            while (!s.empty() && (is_digit(s[0]) || s[0] == ':' || s[0] == ' '))
                s.remove_prefix(1);
        if (!consume(s, ")"))
            return std::nullopt;
    }
    s = skip_spaces(s);
    t.plus = consume(s, "+");
    if (!skip_spaces(s).empty())
        return std::nullopt;
    return t;
}

// Splits at LF (dropping any CRs before it); a file with CRs and no LF is split at CR.
std::vector<std::string_view> split_lines(std::string_view text) {
    char sep = text.find('\n') == std::string_view::npos && text.find('\r') != std::string_view::npos ? '\r' : '\n';
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        std::size_t at = text.find(sep);
        std::string_view line = text.substr(0, at);
        text = at == std::string_view::npos ? std::string_view() : text.substr(at + 1);
        while (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
    }
    return lines;
}

void prune_empty_variations(std::vector<MoveRecord>& moves) {
    for (auto& m : moves) {
        std::erase_if(m.variations, [](const Line& l) { return l.moves.empty(); });
        for (auto& v : m.variations)
            prune_empty_variations(v.moves);
    }
}

class KakinokiReader {
public:
    explicit KakinokiReader(KakinokiFormat format) : format_(format) {}
    Result<GameRecord, ParseError> read(std::string_view text);

private:
    Result<void, ParseError> read_line(std::string_view line);
    Result<void, ParseError> read_header(std::string_view line, std::string_view key, std::string_view value);
    Result<void, ParseError> begin_moves();
    Result<void, ParseError> read_kif_moves(std::string_view line);
    Result<void, ParseError> read_ki2_moves(std::string_view line);
    Result<void, ParseError> add_move(Move m, std::optional<int> time_ms, bool plus);
    void add_special(const RecordResult& r, std::optional<int> time_ms);
    Result<void, ParseError> read_branch(std::string_view line, std::string_view rest);
    int choose_frame(int ply) const;
    void add_comment(std::string text);
    std::vector<MoveRecord>& line_at(const Path& path);
    std::vector<MoveRecord>& current() { return line_at(frames_.back().path); }
    std::vector<Move> moves_before(const Path& path);
    ParseError error(ParseErrorCode code, std::string message, int column) const {
        return ParseError{code, std::move(message), line_no_, column};
    }
    // An error of a move parser, which counts columns from the move's start at `column`, placed
    // on the current line.
    ParseError move_error(ParseError e, int column) const {
        e.line = line_no_;
        e.column += column - 1;
        return e;
    }

    KakinokiFormat format_;
    GameRecord rec_;
    BodReader bod_;
    std::optional<std::string> handicap_name_;
    int handicap_line_ = 0;
    bool in_moves_ = false;
    int line_no_ = 0;
    std::unique_ptr<Position> pos_;
    std::vector<Frame> frames_;
    Move previous_ = Move::none();
    bool ended_ = false;  // a special move closed the current line
    bool special_seen_ = false;
    std::vector<std::string> pending_comments_;  // before the first move of a variation
    std::optional<std::string> summary_;         // the まで line (KI2 takes its result from it)
    int summary_line_ = 0;                       // and its line number
};

Result<GameRecord, ParseError> KakinokiReader::read(std::string_view text) {
    bool blank = true;
    for (auto line : split_lines(text)) {
        ++line_no_;
        blank = blank && trim_spaces(line).empty();
        if (auto r = read_line(line); !r)
            return core::unexpected(r.error());
    }
    if (blank)
        return core::unexpected(ParseError{ParseErrorCode::Empty, "empty record", 0, 0});
    if (!in_moves_)
        if (auto r = begin_moves(); !r)
            return core::unexpected(r.error());
    if (summary_ && (format_ == KakinokiFormat::Ki2 || special_seen_)) {
        Color first = start_position(rec_)->side_to_move();
        Color stm = rec_.moves.size() % 2 ? ~first : first;
        auto r = result_from_summary(*summary_, stm);
        // Resigning and losing on time are the side to move's: a summary that has the side to move
        // win so contradicts the moves above it (a count that does not match, moves missing).
        if (r && !special_seen_ && r->winner == core::winner_of(stm)
            && (r->reason == core::EndReason::Resignation || r->reason == core::EndReason::TimeUp))
            return core::unexpected(ParseError{ParseErrorCode::BadMove,
                                               std::string("the summary has the side to move win by ")
                                                   + (r->reason == core::EndReason::TimeUp ? "time" : "resignation")
                                                   + " after " + std::to_string(rec_.moves.size())
                                                   + " moves: moves are missing or the summary is wrong",
                                               summary_line_, 1});
        if (r && !special_seen_)
            rec_.result = *r;
        // 不戦勝/不戦敗 with "接続切れにより..." after it: the game was lost by a dropped connection.
        else if (r && r->reason == core::EndReason::Disconnect && rec_.result.reason == core::EndReason::Abort
                 && rec_.result.winner == r->winner)
            rec_.result.reason = core::EndReason::Disconnect;
    }
    prune_empty_variations(rec_.moves);
    return std::move(rec_);
}

Result<void, ParseError> KakinokiReader::read_line(std::string_view line) {
    std::string_view t = trim_spaces(line);
    if (t.empty() || t[0] == '#')
        return {};
    if (t[0] == '*') {
        add_comment(std::string(t.substr(1)));
        return {};
    }
    if (t[0] == '&') {
        add_comment(std::string(t));
        return {};
    }
    std::string_view rest = t;
    if (consume(rest, "変化") && (consume(rest, "：") || consume(rest, ":")))
        return read_branch(line, rest);
    if (t.substr(0, 6) == "まで") {
        if (frames_.size() <= 1) {  // a variation's own まで line says nothing about the game
            summary_ = std::string(t);
            summary_line_ = line_no_;
        }
        return {};
    }
    BodReader probe;
    auto bod = in_moves_ ? probe.feed(line, line_no_) : bod_.feed(line, line_no_);
    if (!bod)
        return core::unexpected(bod.error());
    if (*bod) {
        if (in_moves_)
            return core::unexpected(error(ParseErrorCode::BadBoard, "a board diagram after the moves", 1));
        return {};
    }
    if (t.substr(0, 6) == "手数" && t.find("指手") != std::string_view::npos)
        return {};  // the column header of the move list
    if (std::string_view d = skip_ascii_spaces(line); !d.empty() && is_digit(d[0])) {
        if (format_ == KakinokiFormat::Kif)
            return read_kif_moves(line);
        return core::unexpected(error(ParseErrorCode::BadMove, "a KIF move line in a KI2 record", 1));
    }
    rest = t;
    if (read_side_mark(rest)) {
        if (format_ == KakinokiFormat::Ki2)
            return read_ki2_moves(line);
        return core::unexpected(error(ParseErrorCode::BadMove, "a KI2 move line in a KIF record", column_of(line, t)));
    }
    std::size_t wide = t.find("："), ascii = t.find(':');
    if (wide != std::string_view::npos || ascii != std::string_view::npos) {
        std::size_t at = std::min(wide, ascii);
        return read_header(line, t.substr(0, at), t.substr(at + (at == wide ? 3 : 1)));
    }
    return core::unexpected(error(in_moves_ ? ParseErrorCode::BadMove : ParseErrorCode::BadHeader,
                                  "unrecognised line: " + std::string(t), column_of(line, t)));
}

Result<void, ParseError> KakinokiReader::read_header(std::string_view line, std::string_view k,
                                                     std::string_view value) {
    int column = column_of(line, trim_spaces(line));
    if (k.empty() || k.find(' ') != std::string_view::npos || k.find("\u3000") != std::string_view::npos)
        return core::unexpected(error(ParseErrorCode::BadHeader, "bad header key: " + std::string(k), column));
    value = trim_spaces(value);
    if (k == "手合割") {
        if (in_moves_)
            return core::unexpected(error(ParseErrorCode::BadHeader, "手合割 after the moves", column));
        handicap_name_ = std::string(value);
        handicap_line_ = line_no_;
        return {};
    }
    std::string_view name = k;
    for (const auto& h : HEADER_NAMES)
        if (h.japanese == k)
            name = h.key;
    rec_.headers.push_back({std::string(name), std::string(value)});
    return {};
}

Result<void, ParseError> KakinokiReader::begin_moves() {
    in_moves_ = true;
    std::optional<core::Handicap> handicap;
    if (handicap_name_ && *handicap_name_ == "その他" && !bod_.seen())
        return core::unexpected(
            ParseError{ParseErrorCode::BadHeader, "手合割：その他 without a board diagram", handicap_line_, 1});
    if (handicap_name_ && *handicap_name_ != "その他") {
        handicap = core::handicap_from_name(*handicap_name_);
        if (!handicap && !bod_.seen())
            return core::unexpected(
                ParseError{ParseErrorCode::BadHeader, "unknown handicap: " + *handicap_name_, handicap_line_, 1});
    }
    if (bod_.seen()) {
        Color side = handicap && *handicap != core::Handicap::Even ? core::WHITE : core::BLACK;
        auto sfen = bod_.sfen(side);
        if (!sfen)
            return core::unexpected(sfen.error());
        rec_.start_sfen = *sfen;
        rec_.handicap = core::handicap_from_sfen(*sfen);
    } else if (handicap) {
        rec_.set_handicap(*handicap);
    }
    pos_ = start_position(rec_);
    frames_ = {Frame{{}, 1, {}}};
    return {};
}

Result<void, ParseError> KakinokiReader::read_kif_moves(std::string_view line) {
    if (!in_moves_)
        if (auto r = begin_moves(); !r)
            return r;
    std::string_view s = skip_ascii_spaces(line);
    int number_column = column_of(line, s);
    int number = read_int(s).value_or(-1);
    std::string_view text = skip_spaces(s);
    int column = column_of(line, text);
    int expected = frames_.back().start_ply + int(current().size());
    if (ended_)
        return core::unexpected(error(ParseErrorCode::BadMove, "a move after the end of the game", number_column));
    if (number != expected)
        return core::unexpected(error(ParseErrorCode::BadMoveNumber,
                                      "expected move " + std::to_string(expected) + ", found " + std::to_string(number),
                                      number_column));
    std::string_view word = text.substr(0, std::min(text.find(' '), text.size()));
    std::string_view bare = word;
    read_side_mark(bare);
    if (auto special = result_from_special(bare, pos_->side_to_move())) {
        auto tail = read_tail(text.substr(word.size()));
        if (!tail)
            return core::unexpected(error(ParseErrorCode::BadMove, "bad time column", column + code_point_count(word)));
        add_special(*special, tail->time_ms);
        return {};
    }
    auto parsed = parse_kif_move(*pos_, text, previous_);
    if (!parsed)
        return core::unexpected(move_error(parsed.error(), column));
    std::string_view after = text.substr(parsed->length);
    auto tail = read_tail(after);
    if (!tail)
        return core::unexpected(error(ParseErrorCode::BadMove,
                                      "unexpected text after the move: " + std::string(trim_spaces(after)),
                                      column_of(line, skip_spaces(after))));
    return add_move(parsed->move, tail->time_ms, tail->plus);
}

Result<void, ParseError> KakinokiReader::read_ki2_moves(std::string_view line) {
    if (!in_moves_)
        if (auto r = begin_moves(); !r)
            return r;
    // Cut the line at each side mark; every piece is one move.
    std::vector<std::string_view> tokens;
    std::string_view s = skip_spaces(line);
    while (!s.empty()) {
        std::string_view start = s;
        std::string_view probe = s;
        read_side_mark(probe);
        s = probe;
        while (!s.empty()) {
            std::string_view next = s;
            if (read_side_mark(next))
                break;
            pop_code_point(s);
        }
        tokens.push_back(start.substr(0, start.size() - s.size()));
    }
    for (std::string_view token : tokens) {
        int column = column_of(line, token);
        std::string_view body = token;
        read_side_mark(body);
        if (auto special = result_from_special(trim_spaces(body), pos_->side_to_move())) {
            add_special(*special, std::nullopt);
            continue;
        }
        if (ended_)
            return core::unexpected(error(ParseErrorCode::BadMove, "a move after the end of the game", column));
        auto m = parse_ki2_move(*pos_, token, previous_);
        if (!m)
            return core::unexpected(move_error(m.error(), column));
        if (auto r = add_move(*m, std::nullopt, false); !r)
            return r;
    }
    return {};
}

Result<void, ParseError> KakinokiReader::add_move(Move m, std::optional<int> time_ms, bool plus) {
    pos_->play(m);
    MoveRecord mr;
    mr.move = m;
    mr.time_ms = time_ms;
    mr.comments = std::move(pending_comments_);
    pending_comments_.clear();
    current().push_back(std::move(mr));
    frames_.back().plus.push_back(plus);
    previous_ = m;
    return {};
}

// A special move ends its line; only the main line's one is the game's result (the record
// model has no place for a special move inside a variation).
void KakinokiReader::add_special(const RecordResult& r, std::optional<int> time_ms) {
    ended_ = true;
    if (frames_.size() > 1)
        return;
    special_seen_ = true;
    if (r.reason == core::EndReason::None) {
        add_comment("不詰");
        return;
    }
    rec_.result = r;
    rec_.result.time_ms = time_ms;
}

// The line a variation at `ply` branches from: the deepest open line whose move at that ply
// carries KIF's '+', else the deepest open line that has a move at that ply.
int KakinokiReader::choose_frame(int ply) const {
    auto holds = [&](int i) {
        const Frame& f = frames_[std::size_t(i)];
        return f.start_ply <= ply && ply < f.start_ply + int(f.plus.size());
    };
    for (int i = int(frames_.size()) - 1; i >= 0; --i)
        if (holds(i) && frames_[std::size_t(i)].plus[std::size_t(ply - frames_[std::size_t(i)].start_ply)])
            return i;
    for (int i = int(frames_.size()) - 1; i >= 0; --i)
        if (holds(i))
            return i;
    return -1;
}

Result<void, ParseError> KakinokiReader::read_branch(std::string_view line, std::string_view rest) {
    if (!in_moves_)
        return {};  // electron-shogi once wrote 変化 lines among the headers; tsshogi skips them
    std::string_view s = skip_spaces(rest);
    int column = column_of(line, s);
    auto ply = read_int(s);
    if (!ply || !consume(s, "手") || !trim_spaces(s).empty())
        return core::unexpected(error(ParseErrorCode::BadMoveNumber, "bad 変化 line", column));
    int i = choose_frame(*ply);
    if (i < 0)
        return core::unexpected(
            error(ParseErrorCode::BadMoveNumber,
                  "変化：" + std::to_string(*ply) + "手: no move " + std::to_string(*ply) + " to branch from", column));
    Frame f = frames_[std::size_t(i)];
    Path parent = f.path;
    std::size_t at = std::size_t(*ply - f.start_ply);
    if (f.start_ply == *ply && !f.path.empty()) {  // another alternative to the same move
        parent.pop_back();
        at = f.path.back().move;
        frames_.resize(std::size_t(i));
    } else {
        frames_.resize(std::size_t(i) + 1);
    }
    auto& variations = line_at(parent)[at].variations;
    variations.push_back(Line{});
    Path path = parent;
    path.push_back({at, variations.size() - 1});
    frames_.push_back(Frame{path, *ply, {}});
    pos_ = start_position(rec_);
    previous_ = Move::none();
    for (Move m : moves_before(path)) {
        pos_->play(m);
        previous_ = m;
    }
    ended_ = false;
    pending_comments_.clear();
    return {};
}

void KakinokiReader::add_comment(std::string text) {
    if (!in_moves_ || (frames_.size() == 1 && current().empty()))
        rec_.start_comments.push_back(std::move(text));
    else if (current().empty())
        pending_comments_.push_back(std::move(text));
    else
        current().back().comments.push_back(std::move(text));
}

std::vector<MoveRecord>& KakinokiReader::line_at(const Path& path) {
    std::vector<MoveRecord>* line = &rec_.moves;
    for (const auto& step : path)
        line = &(*line)[step.move].variations[step.variation].moves;
    return *line;
}

std::vector<Move> KakinokiReader::moves_before(const Path& path) {
    std::vector<Move> out;
    const std::vector<MoveRecord>* line = &rec_.moves;
    for (const auto& step : path) {
        for (std::size_t i = 0; i < step.move; ++i)
            out.push_back((*line)[i].move);
        line = &(*line)[step.move].variations[step.variation].moves;
    }
    return out;
}

}  // namespace

Result<GameRecord, ParseError> read_kakinoki(std::string_view bytes, KakinokiFormat format) {
    Encoding enc = detect_encoding(bytes);
    Decoded d = to_utf8(bytes, enc);
    if (d.bad_line > 0)
        return core::unexpected(ParseError{ParseErrorCode::BadEncoding,
                                           std::string("bytes that are not valid ") + encoding_name(enc), d.bad_line,
                                           d.bad_column});
    KakinokiReader reader(format);
    return reader.read(d.text);
}

// --- writing

namespace {

// Keys that would be read back as something else (a move, a BOD line, a comment ...).
bool writable_key(std::string_view k) {
    if (k.empty() || k.find_first_of(" \t\r\n:") != std::string_view::npos || k.find("：") != std::string_view::npos)
        return false;
    std::string_view s = k;
    if (k[0] == '#' || k[0] == '*' || k[0] == '&' || k[0] == '|' || k[0] == '+' || is_digit(k[0]) || read_side_mark(s)
        || k.substr(0, 6) == "まで")
        return false;
    for (std::string_view reserved : {"手合割", "変化", "先手の持駒", "後手の持駒", "下手の持駒", "上手の持駒"})
        if (k == reserved)
            return false;
    return true;
}

// Header values are one line; a line break becomes a literal "\n" as JSA files write it.
std::string one_line(std::string_view v) {
    std::string s;
    for (char c : v) {
        if (c == '\n')
            s += "\\n";
        else if (c != '\r')
            s += c;
    }
    return s;
}

// Handicap names that every KIF reader knows (tsshogi reads no other); the rest are written
// as a BOD, from which the handicap is recognised again.
bool well_known(core::Handicap h) {
    using core::Handicap;
    switch (h) {
    case Handicap::Even:
    case Handicap::Lance:
    case Handicap::RightLance:
    case Handicap::Bishop:
    case Handicap::Rook:
    case Handicap::RookLance:
    case Handicap::TwoPiece:
    case Handicap::FourPiece:
    case Handicap::SixPiece:
    case Handicap::EightPiece:
    case Handicap::TenPiece: return true;
    default: return false;
    }
}

std::string start_block(const GameRecord& rec) {
    auto pos = start_position(rec);
    auto h = core::handicap_from_sfen(pos->sfen());
    if (h && pos->game_ply() == 1 && well_known(*h))
        return "手合割：" + std::string(core::handicap_info(*h).japanese) + "\n";
    return write_bod(*pos);
}

std::string time_column(std::int64_t ms, std::int64_t cumulative_ms) {
    long long s = ms / 1000, c = cumulative_ms / 1000;
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%2lld:%02lld/%02lld:%02lld:%02lld)", s / 60, s % 60, c / 3600, c / 60 % 60,
                  c % 60);
    return buf;
}

std::string ply_prefix(int ply) {
    std::string n = std::to_string(ply);
    return std::string(n.size() < 4 ? 4 - n.size() : 0, ' ') + n + " ";
}

bool any_time(const std::vector<MoveRecord>& moves) {
    for (const auto& m : moves) {
        if (m.time_ms)
            return true;
        for (const auto& v : m.variations)
            if (any_time(v.moves))
                return true;
    }
    return false;
}

class KifWriter : public RecordVisitor {
public:
    KifWriter(const GameRecord& rec, std::string& out)
        : rec_(rec), out_(out), times_(any_time(rec.moves) || rec.result.time_ms) {}

    void on_move(const Position& before, const MoveRecord& mr, Move previous, int ply,
                 std::int64_t cumulative_ms) override {
        write_line(ply, kif_move_text(before, mr.move, previous), mr.time_ms.value_or(0), cumulative_ms,
                   !mr.variations.empty());
        out_ += comment_lines(mr.comments);
    }
    void on_line_end(const Position& end, int next_ply, bool main_line,
                     const std::array<std::int64_t, 2>& cum) override {
        if (!main_line)
            return;
        std::string_view word = special_word(rec_.result, end.side_to_move());
        if (word.empty())
            return;
        std::int64_t t = rec_.result.time_ms.value_or(0);
        write_line(next_ply, std::string(word), t, cum[end.side_to_move()] + t, false);
        out_ += summary_text(rec_.result, next_ply - 1, end.side_to_move(), uses_handicap_names(rec_)) + "\n";
    }
    void on_variation(int ply) override { out_ += "\n変化：" + std::to_string(ply) + "手\n"; }

private:
    // The move text is padded to 13 columns before the time, as Kifu for Windows does.
    void write_line(int ply, const std::string& text, std::int64_t ms, std::int64_t cumulative_ms, bool plus) {
        out_ += ply_prefix(ply) + text;
        if (times_)
            out_ +=
                std::string(std::size_t(std::max(1, 13 - display_width(text))), ' ') + time_column(ms, cumulative_ms);
        out_ += plus ? "+\n" : "\n";
    }

    const GameRecord& rec_;
    std::string& out_;
    bool times_;
};

void walk_line(Position& pos, const std::vector<MoveRecord>& moves, int first_ply, Move previous,
               std::array<std::int64_t, 2> cum, bool main_line, RecordVisitor& v) {
    std::size_t played = 0;
    Move prev = previous;
    for (const auto& mr : moves) {
        Color us = pos.side_to_move();
        cum[us] += mr.time_ms.value_or(0);
        v.on_move(pos, mr, prev, first_ply + int(played), cum[us]);
        if (!pos.try_play(mr.move))
            break;
        ++played;
        prev = mr.move;
    }
    v.on_line_end(pos, first_ply + int(played), main_line, cum);
    for (std::size_t i = played; i-- > 0;) {
        pos.unplay();
        cum[pos.side_to_move()] -= moves[i].time_ms.value_or(0);
        for (const auto& var : moves[i].variations) {
            v.on_variation(first_ply + int(i));
            walk_line(pos, var.moves, first_ply + int(i), i > 0 ? moves[i - 1].move : previous, cum, false, v);
        }
    }
}

}  // namespace

void walk_record(const GameRecord& rec, RecordVisitor& visitor) {
    auto pos = start_position(rec);
    walk_line(*pos, rec.moves, 1, Move::none(), {0, 0}, true, visitor);
}

bool uses_handicap_names(const GameRecord& rec) {
    auto pos = start_position(rec);
    auto h = core::handicap_from_sfen(pos->sfen());
    return h && *h != core::Handicap::Even;
}

std::string header_block(const GameRecord& rec) {
    bool handicap = uses_handicap_names(rec);
    std::string start = start_block(rec), out;
    bool placed = false;
    for (const auto& h : rec.headers) {
        std::string name = h.key;
        if (h.key == key::BLACK || h.key == key::WHITE) {
            name = side_name(h.key == key::BLACK ? core::BLACK : core::WHITE, handicap);
            if (!placed)
                out += start;
            placed = true;
        } else {
            for (const auto& n : HEADER_NAMES)
                if (n.key == h.key && n.japanese != "下手" && n.japanese != "上手")
                    name = n.japanese;
        }
        if (writable_key(name))
            out += name + "：" + one_line(h.value) + "\n";
    }
    return placed ? out : out + start;
}

std::string comment_lines(const std::vector<std::string>& comments) {
    std::string out;
    for (const auto& c : comments) {
        std::string_view rest = c;
        bool bookmark = !rest.empty() && rest[0] == '&';
        while (true) {
            std::size_t nl = rest.find('\n');
            std::string_view part = rest.substr(0, nl);
            while (!part.empty() && part.back() == '\r')
                part.remove_suffix(1);
            if (!bookmark)
                out += '*';
            out += part;
            out += '\n';
            if (nl == std::string_view::npos)
                break;
            rest.remove_prefix(nl + 1);
            bookmark = false;
        }
    }
    return out;
}

std::string encode_output(const std::string& text, Encoding enc) {
    if (enc == Encoding::Utf8)
        return text;
    std::string crlf;
    crlf.reserve(text.size() + text.size() / 16);
    for (char c : text) {
        if (c == '\n')
            crlf += '\r';
        crlf += c;
    }
    return from_utf8(crlf, enc);
}

}  // namespace detail

Result<GameRecord, ParseError> read_kif(std::string_view bytes) {
    return detail::read_kakinoki(bytes, detail::KakinokiFormat::Kif);
}

std::string write_kif(const GameRecord& rec, Encoding enc) {
    std::string out = std::string("#KIF version=2.0 encoding=")
                    + (enc == Encoding::Utf8       ? "UTF-8"
                       : enc == Encoding::ShiftJis ? "Shift_JIS"
                                                   : "EUC-JP")
                    + "\n";
    out += detail::header_block(rec);
    out += "手数----指手---------消費時間--\n";
    out += detail::comment_lines(rec.start_comments);
    detail::KifWriter writer(rec, out);
    detail::walk_record(rec, writer);
    return detail::encode_output(out, enc);
}

}  // namespace hisha::notation
