// PSN, xshogi and GNU Shogi game files: one forgiving reader for all of them, and the PSN and
// xshogi writers.
#include "psn.h"

#include <algorithm>
#include <optional>

#include "core/rules.h"
#include "core/text.h"
#include "notation/coordinate.h"
#include "notation/western.h"

namespace hisha::notation {

using namespace hisha::core;

namespace {

using text::is_space;
using text::lower;
using text::trim;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Comment text: each line trimmed, empty lines at either end dropped (inner ones kept).
std::string tidy_comment(std::string_view s) {
    std::vector<std::string> lines;
    for (std::string_view line : text::lines(s))
        lines.push_back(trim(line));
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    std::size_t first = 0;
    while (first < lines.size() && lines[first].empty())
        ++first;
    std::string out;
    for (std::size_t i = first; i < lines.size(); ++i)
        out += (i > first ? "\n" : "") + lines[i];
    return out;
}

// The text with 1-based line and column (in UTF-8 characters) of every byte offset.
class Source {
public:
    explicit Source(std::string_view text) : text_(text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                starts_.push_back(i + 1);
    }
    std::string_view text() const { return text_; }
    int line(std::size_t i) const { return int(std::upper_bound(starts_.begin(), starts_.end(), i) - starts_.begin()); }
    int column(std::size_t i) const {
        int col = 1;
        for (std::size_t k = starts_[line(i) - 1]; k < i && k < text_.size(); ++k)
            col += (static_cast<unsigned char>(text_[k]) & 0xC0) != 0x80;
        return col;
    }
    std::size_t line_end(std::size_t i) const {
        std::size_t e = text_.find('\n', i);
        return e == std::string_view::npos ? text_.size() : e;
    }
    // True when only blanks precede offset i on its line (looks back over the blanks only).
    bool first_on_line(std::size_t i) const {
        while (i > 0 && is_blank(text_[i - 1]))
            --i;
        return i == 0 || text_[i - 1] == '\n';
    }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

bool all_of_chars(std::string_view s, bool (*pred)(char)) {
    return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_dot(char c) { return c == '.'; }

// Length of a leading move number "12." / "10..." (0 when there is none).
std::size_t number_prefix(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size() && is_digit(t[i]))
        ++i;
    if (i == 0 || i >= t.size() || t[i] != '.')
        return 0;
    while (i < t.size() && t[i] == '.')
        ++i;
    return i;
}

const char* result_tag(Winner w) {
    switch (w) {
    case Winner::Black: return "1-0";
    case Winner::White: return "0-1";
    case Winner::Draw: return "1/2-1/2";
    default: return "*";
    }
}

std::optional<Winner> winner_from_tag(std::string_view v) {
    std::string l = lower(trim(v));
    if (l == "1-0" || l == "black wins" || l == "sente wins")
        return Winner::Black;
    if (l == "0-1" || l == "white wins" || l == "gote wins")
        return Winner::White;
    if (l == "1/2-1/2" || l == "draw")
        return Winner::Draw;
    if (l == "*")
        return Winner::None;
    return std::nullopt;
}

// "Black: A.  White: B." -> {A, B}.
std::optional<std::pair<std::string, std::string>> players_line(std::string_view s) {
    auto b = s.find("Black:");
    auto w = s.find("White:");
    if (b == std::string_view::npos || w == std::string_view::npos || w < b)
        return std::nullopt;
    auto clean = [](std::string_view v) {
        std::string t = trim(v);
        if (!t.empty() && t.back() == '.')
            t.pop_back();
        return t;
    };
    return std::make_pair(clean(s.substr(b + 6, w - b - 6)), clean(s.substr(w + 6)));
}

struct MoveTextToken {
    std::size_t begin;
    std::size_t end;
};

// Reads one game from `start`; stops at the end or where the next game begins.
class GameReader {
public:
    GameReader(const Source& src, std::size_t start) : src_(src), i_(start) {}
    Result<GameRecord, ParseError> read();
    std::size_t next() const { return i_; }
    bool found() const { return found_; }

private:
    enum class Step { Continue, NextGame };
    Result<Step, ParseError> step();
    Result<void, ParseError> hash_line(std::size_t at, std::size_t eol);
    bool is_tag(std::size_t at) const;
    Result<void, ParseError> tag(std::size_t at);
    Result<void, ParseError> apply_tag(const std::string& key, const std::string& value, std::size_t value_at);
    Result<void, ParseError> comment(std::size_t at);
    bool movetext_line(std::size_t at) const;
    MoveTextToken token_at(std::size_t at) const;
    Result<void, ParseError> begin_moves();
    Result<void, ParseError> word(MoveTextToken t);
    Result<bool, ParseError> result_word(MoveTextToken t);
    Result<void, ParseError> move(MoveTextToken t);
    Result<void, ParseError> finish();
    void set_result(Winner w, EndReason r, std::optional<Color> actor = std::nullopt);
    void add_comment(std::string text);
    void flush_preamble();
    ParseError error(ParseErrorCode code, std::string message, std::size_t at) const {
        return ParseError{code, std::move(message), src_.line(at), src_.column(at)};
    }

    const Source& src_;
    std::size_t i_;
    bool found_ = false;
    bool in_moves_ = false;
    bool title_seen_ = false;
    GameRecord rec_;
    std::unique_ptr<Position> pos_;
    std::vector<std::string> preamble_;
    int preamble_line_ = 0;
    std::optional<std::string> tag_sfen_;
    std::size_t tag_sfen_at_ = 0;
    std::optional<Handicap> tag_handicap_;
    std::optional<Winner> tag_winner_;
    std::size_t tag_result_at_ = 0;
    bool result_seen_ = false;
};

Result<GameRecord, ParseError> GameReader::read() {
    std::string_view t = src_.text();
    while (i_ < t.size()) {
        while (i_ < t.size() && is_space(t[i_]))
            ++i_;
        if (i_ >= t.size())
            break;
        auto s = step();
        if (!s)
            return unexpected(s.error());
        if (*s == Step::NextGame)
            break;
    }
    if (auto r = finish(); !r)
        return unexpected(r.error());
    return std::move(rec_);
}

Result<GameReader::Step, ParseError> GameReader::step() {
    std::string_view t = src_.text();
    char c = t[i_];
    bool line_start = src_.first_on_line(i_);
    bool tag = c == '[' && is_tag(i_);
    if ((line_start && c == '#') || tag) {
        if (in_moves_)
            return Step::NextGame;
        found_ = true;
        auto r = tag ? this->tag(i_) : hash_line(i_, src_.line_end(i_));
        if (!r)
            return unexpected(r.error());
        return Step::Continue;
    }
    found_ = true;
    if (line_start && c == '%') {  // PGN escape line
        i_ = src_.line_end(i_);
        return Step::Continue;
    }
    if (c == '[' || c == '(' || c == '{') {
        if (auto r = comment(i_); !r)
            return unexpected(r.error());
        return Step::Continue;
    }
    if (c == ']' || c == ')' || c == '}')
        return unexpected(error(ParseErrorCode::BadMove, std::string("unmatched '") + c + "'", i_));
    if (!in_moves_ && line_start && !movetext_line(i_)) {
        std::size_t eol = src_.line_end(i_);
        int line = src_.line(i_);
        if (!preamble_.empty() && line > preamble_line_ + 1)
            preamble_.push_back("");  // keep paragraphs apart
        preamble_.push_back(trim(t.substr(i_, eol - i_)));
        preamble_line_ = line;
        i_ = eol;
        return Step::Continue;
    }
    MoveTextToken tok = token_at(i_);
    i_ = tok.end;
    if (auto r = word(tok); !r)
        return unexpected(r.error());
    return Step::Continue;
}

Result<void, ParseError> GameReader::hash_line(std::size_t at, std::size_t eol) {
    std::string_view raw = src_.text().substr(at + 1, eol - at - 1);
    std::string text = trim(raw);
    i_ = eol;
    if (!title_seen_) {
        title_seen_ = true;
        if (!text.empty())
            rec_.set_header(key::TITLE, text);
        return {};
    }
    if (auto vs = text.find(" vs. "); vs != std::string::npos && rec_.header(key::BLACK).empty()) {
        rec_.set_header(key::BLACK, trim(text.substr(0, vs)));
        rec_.set_header(key::WHITE, trim(text.substr(vs + 5)));
        return {};
    }
    std::string l = lower(text);
    if (l.rfind("sfen:", 0) == 0 || l.rfind("handicap:", 0) == 0) {
        std::size_t colon = raw.find(':');
        std::size_t value_at = at + 1 + colon + 1;
        while (value_at < eol && is_blank(src_.text()[value_at]))
            ++value_at;
        return apply_tag(text.substr(0, text.find(':')), trim(raw.substr(colon + 1)), value_at);
    }
    preamble_.push_back(text);
    preamble_line_ = src_.line(at);
    return {};
}

bool GameReader::is_tag(std::size_t at) const {
    std::string_view t = src_.text();
    std::size_t j = at + 1;
    while (j < t.size() && is_blank(t[j]))
        ++j;
    std::size_t k = j;
    while (j < t.size() && !is_space(t[j]) && t[j] != '"' && t[j] != '[' && t[j] != ']')
        ++j;
    if (j == k)
        return false;
    while (j < t.size() && is_blank(t[j]))
        ++j;
    return j < t.size() && t[j] == '"';
}

Result<void, ParseError> GameReader::tag(std::size_t at) {
    std::string_view t = src_.text();
    std::size_t j = at + 1;
    while (is_blank(t[j]))
        ++j;
    std::size_t k = j;
    while (!is_space(t[j]) && t[j] != '"')
        ++j;
    std::string key(t.substr(k, j - k));
    while (is_blank(t[j]))
        ++j;
    std::size_t value_at = ++j;
    std::string value;
    for (; j < t.size() && t[j] != '"'; ++j) {
        if (t[j] == '\n')
            return unexpected(error(ParseErrorCode::BadHeader, "tag " + key + ": unterminated value", value_at - 1));
        if (t[j] == '\\' && j + 1 < t.size() && (t[j + 1] == '"' || t[j + 1] == '\\'))
            ++j;
        value += t[j];
    }
    if (j >= t.size())
        return unexpected(error(ParseErrorCode::BadHeader, "tag " + key + ": unterminated value", value_at - 1));
    ++j;
    while (j < t.size() && is_blank(t[j]))
        ++j;
    if (j >= t.size() || t[j] != ']')
        return unexpected(error(ParseErrorCode::BadHeader, "tag " + key + ": expected ']'", std::min(j, t.size())));
    i_ = j + 1;
    return apply_tag(key, value, value_at);
}

Result<void, ParseError> GameReader::apply_tag(const std::string& key, const std::string& value, std::size_t value_at) {
    std::string k = lower(key);
    if (k == "sente" || k == "black")
        rec_.set_header(key::BLACK, value);
    else if (k == "gote" || k == "white")
        rec_.set_header(key::WHITE, value);
    else if (k == "event" || k == "site" || k == "opening" || k == "title")
        rec_.set_header(k == "event"     ? key::EVENT
                        : k == "site"    ? key::SITE
                        : k == "opening" ? key::OPENING
                                         : key::TITLE,
                        value);
    else if (k == "date")
        rec_.set_header(key::START_TIME, value);
    else if (k == "timecontrol")
        rec_.set_header(key::TIME_CONTROL, value);
    else if (k == "sfen" || k == "fen") {
        tag_sfen_ = value;
        tag_sfen_at_ = value_at;
    } else if (k == "handicap") {
        tag_handicap_ = handicap_from_name(value);
        if (!tag_handicap_)
            return unexpected(error(ParseErrorCode::BadHeader, "unknown handicap '" + value + "'", value_at));
    } else if (k == "result" && winner_from_tag(value)) {
        tag_winner_ = winner_from_tag(value);
        tag_result_at_ = value_at;
    } else
        rec_.set_header(key, value);
    return {};
}

Result<void, ParseError> GameReader::comment(std::size_t at) {
    std::string_view t = src_.text();
    char open = t[at];
    char close = open == '[' ? ']' : open == '(' ? ')' : '}';
    int depth = 0;
    std::size_t j = at;
    for (; j < t.size(); ++j) {
        depth += (t[j] == open) - (t[j] == close);
        if (depth == 0)
            break;
    }
    if (j >= t.size())
        return unexpected(error(ParseErrorCode::BadMove, std::string("unterminated comment: no '") + close + "'", at));
    i_ = j + 1;
    add_comment(tidy_comment(t.substr(at + 1, j - at - 1)));
    return {};
}

void GameReader::add_comment(std::string text) {
    if (text.empty())
        return;
    if (rec_.moves.empty()) {
        flush_preamble();
        rec_.start_comments.push_back(std::move(text));
    } else
        rec_.moves.back().comments.push_back(std::move(text));
}

void GameReader::flush_preamble() {
    std::string joined;
    for (const auto& l : preamble_) {
        joined += l + "\n";
        if (auto p = players_line(l); p && rec_.header(key::BLACK).empty()) {
            rec_.set_header(key::BLACK, p->first);
            rec_.set_header(key::WHITE, p->second);
        }
    }
    preamble_.clear();
    if (std::string c = tidy_comment(joined); !c.empty())
        rec_.start_comments.push_back(std::move(c));
}

MoveTextToken GameReader::token_at(std::size_t at) const {
    std::string_view t = src_.text();
    std::size_t e = at;
    while (e < t.size() && !is_space(t[e]) && t[e] != '[' && t[e] != '(' && t[e] != '{')
        ++e;
    return {at, e};
}

// A line starts the movetext when its first word is a move number, "...", a move or a result.
bool GameReader::movetext_line(std::size_t at) const {
    MoveTextToken tok = token_at(at);
    std::string_view w = src_.text().substr(tok.begin, tok.end - tok.begin);
    if (number_prefix(w) > 0 || all_of_chars(w, is_dot))
        return true;
    std::string l = lower(w);
    static constexpr std::string_view WORDS[] = {"resigns", "resign",  "resigned", "sennichite", "jishogi",
                                                 "draw",    "drawn",   "mate",     "checkmate",  "1-0",
                                                 "0-1",     "1/2-1/2", "*"};
    if (std::find(std::begin(WORDS), std::end(WORDS), l) != std::end(WORDS))
        return true;
    if (l == "black" || l == "white") {  // "Black wins" (xshogi's last line), not "Black: A."
        std::size_t j = tok.end;
        while (j < src_.text().size() && is_blank(src_.text()[j]))
            ++j;
        MoveTextToken next = token_at(j);
        std::string n = lower(src_.text().substr(next.begin, next.end - next.begin));
        return n.rfind("win", 0) == 0 || n == "won" || n == "mates!";
    }
    return looks_like_move(w);
}

Result<void, ParseError> GameReader::begin_moves() {
    if (pos_)
        return {};
    pos_ = std::make_unique<Position>();
    if (tag_sfen_) {
        if (auto r = pos_->set(*tag_sfen_, SfenRules::Relaxed); !r) {
            ParseError e = r.error();
            std::size_t at = tag_sfen_at_ + std::size_t(std::max(e.column - 1, 0));
            return unexpected(error(e.code, "SFEN: " + e.message, std::min(at, src_.text().size())));
        }
        rec_.start_sfen = pos_->sfen();
        if (auto h = handicap_from_sfen(rec_.start_sfen); h && *h != Handicap::Even)
            rec_.handicap = h;
    } else if (tag_handicap_) {
        rec_.set_handicap(*tag_handicap_);
        if (auto r = pos_->set(rec_.start_sfen); !r)
            return unexpected(r.error());
    }
    flush_preamble();
    return {};
}

Result<void, ParseError> GameReader::word(MoveTextToken tok) {
    in_moves_ = true;
    if (auto r = begin_moves(); !r)
        return r;
    std::string_view w = src_.text().substr(tok.begin, tok.end - tok.begin);
    std::size_t n = number_prefix(w);
    if (n > 0) {
        if (n == w.size())
            return {};
        tok.begin += n;
        w.remove_prefix(n);
    }
    if (all_of_chars(w, is_digit) || all_of_chars(w, is_dot))
        return {};
    auto is_result = result_word(tok);
    if (!is_result)
        return unexpected(is_result.error());
    if (*is_result)
        return {};
    return move(tok);
}

Result<bool, ParseError> GameReader::result_word(MoveTextToken tok) {
    std::string w = lower(src_.text().substr(tok.begin, tok.end - tok.begin));
    while (!w.empty() && (w.back() == '.' || w.back() == '!'))
        w.pop_back();
    Color stm = pos_->side_to_move();
    if (w == "black" || w == "white") {
        std::size_t j = tok.end;
        while (j < src_.text().size() && is_blank(src_.text()[j]))
            ++j;
        MoveTextToken next = token_at(j);
        std::string n = lower(src_.text().substr(next.begin, next.end - next.begin));
        if (n != "wins" && n != "wins." && n != "mates!" && n != "won")
            return false;
        i_ = next.end;
        Winner win = w == "black" ? Winner::Black : Winner::White;
        Color loser = win == Winner::Black ? WHITE : BLACK;
        set_result(win, loser == stm && is_checkmate(*pos_) ? EndReason::Checkmate : EndReason::None);
        return true;
    }
    if (w == "resigns" || w == "resign" || w == "resigned")
        set_result(winner_of(~stm), EndReason::Resignation, stm);
    else if (w == "mate" || w == "checkmate") {
        if (!is_checkmate(*pos_))
            return unexpected(
                error(ParseErrorCode::IllegalMove, "'Mate', but the position is not checkmate", tok.begin));
        set_result(winner_of(~stm), EndReason::Checkmate);
    } else if (w == "draw" || w == "drawn")
        set_result(Winner::Draw, judge_repetition(*pos_) == Repetition::Draw ? EndReason::Sennichite : EndReason::None);
    else if (w == "sennichite") {
        Repetition rep = judge_repetition(*pos_);
        if (rep == Repetition::BlackLoses || rep == Repetition::WhiteLoses)
            set_result(rep == Repetition::BlackLoses ? Winner::White : Winner::Black, EndReason::PerpetualCheck);
        else
            set_result(Winner::Draw, EndReason::Sennichite);
    } else if (w == "jishogi")
        set_result(Winner::Draw, EndReason::ImpasseCount);
    else if (auto tagged = winner_from_tag(w); tagged && (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*"))
        set_result(*tagged, EndReason::None);
    else
        return false;
    return true;
}

void GameReader::set_result(Winner w, EndReason r, std::optional<Color> actor) {
    result_seen_ = true;
    rec_.result.winner = w;
    rec_.result.reason = r;
    rec_.result.actor = actor;
}

Result<void, ParseError> GameReader::move(MoveTextToken tok) {
    std::string_view t = src_.text();
    std::string_view w = t.substr(tok.begin, tok.end - tok.begin);
    // "P - 7f": a move split by blanks is joined with the words after it on its line, when
    // that gives a move.
    std::size_t eol = src_.line_end(tok.begin);
    for (std::size_t end = tok.end, n = 0; n < 3 && !parse_western_spec(w) && end < eol; ++n) {
        std::size_t j = end;
        while (j < eol && is_blank(t[j]))
            ++j;
        MoveTextToken next = token_at(j);
        if (next.end == next.begin)
            break;
        end = next.end;
        if (parse_western_spec(t.substr(tok.begin, end - tok.begin))) {
            tok.end = end;
            w = t.substr(tok.begin, end - tok.begin);
        }
    }
    if (result_seen_ && parse_western_spec(w))
        return unexpected(error(ParseErrorCode::IllegalMove, std::string(w) + ": a move after the result", tok.begin));
    auto m = parse_western(*pos_, w, src_.line(tok.begin), src_.column(tok.begin));
    if (!m)
        return unexpected(m.error());
    pos_->play(*m);
    rec_.moves.push_back(MoveRecord{*m, {}, {}, {}});
    i_ = tok.end;
    return {};
}

Result<void, ParseError> GameReader::finish() {
    if (auto r = begin_moves(); !r)
        return r;
    flush_preamble();
    if (!tag_winner_ || *tag_winner_ == Winner::None)
        return {};
    if (result_seen_ && rec_.result.winner != *tag_winner_)
        return unexpected(
            error(ParseErrorCode::BadHeader, "the Result tag disagrees with the end of the moves", tag_result_at_));
    if (!result_seen_) {
        Color loser = *tag_winner_ == Winner::Black ? WHITE : BLACK;
        bool mate = *tag_winner_ != Winner::Draw && pos_->side_to_move() == loser && is_checkmate(*pos_);
        set_result(*tag_winner_, mate ? EndReason::Checkmate : EndReason::None);
    }
    return {};
}

// --- writing

std::string escape_tag(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

// True when "[ text ]" would read as a tag: a word, blanks, then a quote.
bool tag_like(std::string_view text) {
    std::size_t j = 0;
    while (j < text.size() && !is_space(text[j]) && text[j] != '"' && text[j] != '[' && text[j] != ']')
        ++j;
    if (j == 0)
        return false;
    while (j < text.size() && is_blank(text[j]))
        ++j;
    return j < text.size() && text[j] == '"';
}

// True when every `close` in text ends an earlier `open` and every `open` is closed (the
// reader counts nesting).
bool balanced(std::string_view text, char open, char close) {
    int depth = 0;
    for (char c : text) {
        depth += (c == open) - (c == close);
        if (depth < 0)
            return false;
    }
    return depth == 0;
}

// A comment in the first bracket pair that holds it intact and cannot pass for a tag; failing
// all three, braces with the text's own braces turned into parentheses.
std::string comment_block(std::string_view text) {
    static constexpr std::pair<char, char> PAIRS[] = {{'[', ']'}, {'{', '}'}, {'(', ')'}};
    std::string body(text);
    char open = '{', close = '}';
    auto fits = std::find_if(std::begin(PAIRS), std::end(PAIRS), [&](auto p) {
        return balanced(text, p.first, p.second) && !(p.first == '[' && tag_like(text));
    });
    if (fits != std::end(PAIRS)) {
        open = fits->first;
        close = fits->second;
    } else {
        std::replace(body.begin(), body.end(), '{', '(');
        std::replace(body.begin(), body.end(), '}', ')');
    }
    std::string out(1, open);
    out += ' ';
    out += body;
    out += ' ';
    out += close;
    return out;
}

// Movetext in lines of at most WIDTH columns; comments on lines of their own.
class MoveText {
public:
    static constexpr std::size_t WIDTH = 79;
    void word(std::string_view w) {
        if (!line_.empty() && line_.size() + 1 + w.size() > WIDTH)
            flush();
        if (!line_.empty())
            line_ += ' ';
        line_ += w;
    }
    void block(std::string_view b) {
        flush();
        out_ += b;
        out_ += '\n';
    }
    void flush() {
        if (!line_.empty())
            out_ += line_ + "\n";
        line_.clear();
    }
    std::string take() {
        flush();
        return std::move(out_);
    }

private:
    std::string line_;
    std::string out_;
};

// The movetext word that ends a game, by how it ended ("" when it has not ended). "Resigns" says that
// the side to move resigned, so it is written only when that is the loser.
std::string result_word_for(const RecordResult& r, Color to_move) {
    switch (r.reason) {
    case EndReason::Resignation:
        if (r.winner == winner_of(~to_move))
            return "Resigns";
        break;
    case EndReason::Checkmate: return "Mate";
    case EndReason::Sennichite:
    case EndReason::PerpetualCheck: return "Sennichite";
    case EndReason::ImpasseCount:
        if (r.winner == Winner::Draw)
            return "Jishogi";
        break;
    default: break;
    }
    switch (r.winner) {
    case Winner::Black: return "Black wins";
    case Winner::White: return "White wins";
    case Winner::Draw: return "Draw";
    default: return "";
    }
}

// Each move's text: Western (or coordinate) while the moves are legal, USI after an illegal one
// (so that a reader stops exactly there).
std::vector<std::string> move_texts(const GameRecord& rec, bool western, Color& first) {
    auto pos = start_position(rec);
    first = pos->side_to_move();
    std::vector<std::string> out;
    bool legal = true;
    for (const auto& mr : rec.moves) {
        legal = legal && pos->is_legal(mr.move);
        out.push_back(legal && western ? write_western(*pos, mr.move) : write_coordinate(mr.move));
        if (legal)
            pos->play(mr.move);
    }
    return out;
}

void write_tags(const GameRecord& rec, std::string& out) {
    auto tag = [&](std::string_view k, std::string_view v) {
        out += '[';
        out += k;
        out += " \"";
        out += escape_tag(v);
        out += "\"]\n";
    };
    static constexpr std::pair<std::string_view, std::string_view> KNOWN[] = {{key::BLACK, "Sente"},
                                                                              {key::WHITE, "Gote"},
                                                                              {key::EVENT, "Event"},
                                                                              {key::SITE, "Site"},
                                                                              {key::START_TIME, "Date"},
                                                                              {key::OPENING, "Opening"},
                                                                              {key::TIME_CONTROL, "TimeControl"}};
    for (auto [k, name] : KNOWN)
        if (std::string v = rec.header(k); !v.empty())
            tag(name, v);
    bool even = rec.start_sfen == START_SFEN;
    if (rec.handicap && *rec.handicap != Handicap::Even && handicap_info(*rec.handicap).sfen == rec.start_sfen)
        tag("Handicap", handicap_info(*rec.handicap).english);
    else if (!even)
        tag("SFEN", rec.start_sfen);
    if (rec.result.winner != Winner::None)
        tag("Result", result_tag(rec.result.winner));
    for (const auto& h : rec.headers) {
        bool known = h.key == key::TITLE || (rec.result.winner != Winner::None && lower(h.key) == "result")
                  || std::any_of(std::begin(KNOWN), std::end(KNOWN), [&](auto p) { return p.first == h.key; });
        if (!known && !h.value.empty() && h.key.find_first_of(" \t\"[]") == std::string::npos)
            tag(h.key, h.value);
    }
}

}  // namespace

std::string write_psn(const GameRecord& rec) {
    std::string out;
    if (std::string title = rec.header(key::TITLE); !title.empty())
        out += "# " + title + "\n";
    write_tags(rec, out);
    out += "\n";
    MoveText text;
    for (const auto& c : rec.start_comments)
        text.block(comment_block(c));
    Color first;
    std::vector<std::string> moves = move_texts(rec, true, first);
    bool need_number = true;
    for (std::size_t k = 0; k < moves.size(); ++k) {
        bool black = (k % 2 == 0) == (first == BLACK);
        std::size_t number = 1 + (k + (first == WHITE ? 1 : 0)) / 2;
        if (black)
            text.word(std::to_string(number) + ". " + moves[k]);
        else
            text.word(need_number ? std::to_string(number) + "... " + moves[k] : moves[k]);
        need_number = false;
        for (const auto& c : rec.moves[k].comments) {
            text.block(comment_block(c));
            need_number = true;
        }
    }
    Color last = rec.moves.size() % 2 ? ~first : first;
    std::string w = result_word_for(rec.result, last);
    text.word(w.empty() ? "*" : w);  // PGN's "unfinished": every game ends with a word
    return out + text.take();
}

std::string write_xshogi_game(const GameRecord& rec) {
    std::string title = rec.header(key::TITLE);
    if (title.find("game file --") == std::string::npos)
        title = "xshogi game file -- " + (title.empty() ? std::string("Hisha") : title);
    std::string out = "# " + title + "\n";
    std::string black = rec.header(key::BLACK), white = rec.header(key::WHITE);
    out += black.empty() && white.empty() ? "#\n" : "# " + black + " vs. " + white + "\n";
    if (rec.start_sfen != START_SFEN) {
        bool named = rec.handicap && handicap_info(*rec.handicap).sfen == rec.start_sfen;
        out += named ? "# Handicap: " + std::string(handicap_info(*rec.handicap).english) + "\n"
                     : "# SFEN: " + rec.start_sfen + "\n";
    }
    out += "\n";
    Color first;
    std::vector<std::string> moves = move_texts(rec, false, first);
    std::string line;
    std::size_t offset = first == WHITE ? 1 : 0;
    for (std::size_t k = 0; k < moves.size(); ++k) {
        std::size_t slot = k + offset;
        if (slot % 2 == 0 || k == 0) {
            if (slot % 10 == 0 && !line.empty()) {
                out += line + "\n";
                line.clear();
            }
            if (!line.empty())
                line += ' ';
            line += std::to_string(slot / 2 + 1);
            line += slot % 2 ? ". ..." : ".";
        }
        line += " " + moves[k];
    }
    if (!line.empty())
        out += line + "\n";
    const char* words[] = {"", "Black wins", "White wins", "Draw"};
    if (rec.result.winner != Winner::None)
        out += std::string(words[int(rec.result.winner)]) + "\n";
    return out;
}

namespace {

// The file as the reader sees it: without a UTF-8 BOM, and with no-break spaces (which
// web copies of the GNU Shogi manual use between moves) as plain spaces, one character each
// so that columns stay the same.
std::string normalised(std::string_view text) {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        bool nbsp = text[i] == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0';
        out += nbsp ? ' ' : text[i];
        i += nbsp;
    }
    return out;
}

}  // namespace

Result<std::vector<GameRecord>, ParseError> read_psn_games(std::string_view text) {
    std::string clean = normalised(text);
    Source src(clean);
    std::vector<GameRecord> games;
    for (std::size_t at = 0; at < clean.size();) {
        GameReader reader(src, at);
        auto g = reader.read();
        if (!g)
            return unexpected(g.error());
        if (!reader.found())
            break;
        games.push_back(std::move(*g));
        at = reader.next();
    }
    if (games.empty())
        return unexpected(ParseError{ParseErrorCode::Empty, "no game in the file", 1, 1});
    return games;
}

Result<GameRecord, ParseError> read_psn(std::string_view text) {
    std::string clean = normalised(text);
    Source src(clean);
    GameReader reader(src, 0);
    auto g = reader.read();
    if (g && !reader.found())
        return unexpected(ParseError{ParseErrorCode::Empty, "no game in the file", 1, 1});
    return g;
}

}  // namespace hisha::notation
