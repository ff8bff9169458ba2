// Format names, detection and dispatch to the readers and writers.
#include "formats.h"

#include <algorithm>
#include <cctype>

#include "core/names.h"
#include "core/text.h"
#include "notation/csa.h"
#include "notation/ki2.h"
#include "notation/kif.h"
#include "notation/psn.h"
#include "notation/usi.h"
#include "notation/western.h"

namespace hisha::notation {

namespace {

using text::lower;

// Each format's name, and the other names it is read by (in lower case).
constexpr core::EnumName<Format> FORMAT_NAMES[] = {
    {Format::Sfen, "sfen"},
    {Format::Usi, "usi"},
    {Format::Csa, "csa", {"csa3", "csa3.0"}},
    {Format::Csa22, "csa2.2", {"csa22", "csa2"}},
    {Format::Kif, "kif", {"kifu"}},
    {Format::Ki2, "ki2", {"ki2u"}},
    {Format::Psn, "psn"},
    {Format::Western, "western"},
    {Format::Xshogi, "xshogi", {"gam"}},
};

// The first non-blank, non-comment lines of the text, trimmed.
std::vector<std::string_view> head_lines(std::string_view text, std::size_t max) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size() && out.size() < max) {
        std::size_t j = text.find('\n', i);
        if (j == std::string_view::npos)
            j = text.size();
        std::string_view line = text.substr(i, j - i);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (!line.empty())
            out.push_back(line);
        i = j + 1;
    }
    return out;
}

// Western moves numbered like the seeds' listings: "1. P-7f    2. P-3d".
std::string write_western_list(const GameRecord& rec) {
    // The first `#` line is the title (as in xshogi's files), so there always is one.
    std::string title = rec.header(key::TITLE);
    std::string out = "# " + (title.empty() ? std::string("Shogi game") : title) + "\n";
    std::string b = rec.header(key::BLACK), w = rec.header(key::WHITE);
    if (!b.empty() || !w.empty())
        out += "# " + (b.empty() ? std::string("?") : b) + " vs. " + (w.empty() ? std::string("?") : w) + "\n";
    if (rec.handicap && *rec.handicap != core::Handicap::Even)
        out += "# Handicap: " + std::string(core::handicap_info(*rec.handicap).english) + "\n";
    else if (rec.start_sfen != core::START_SFEN)
        out += "# SFEN: " + rec.start_sfen + "\n";
    auto pos = start_position(rec);
    int n = 0;
    std::string line;
    for (const auto& mr : rec.moves) {
        std::string item = std::to_string(pos->game_ply()) + ". " + write_western(*pos, mr.move);
        pos->play(mr.move);
        line += (line.empty() ? "" : "   ") + item;
        if (++n % 4 == 0) {
            out += line + "\n";
            line.clear();
        }
    }
    if (!line.empty())
        out += line + "\n";
    return out;
}
}  // namespace

const char* format_name(Format f) { return core::name_of(FORMAT_NAMES, f, "?"); }

std::optional<Format> format_from_name(std::string_view name) { return core::value_named(FORMAT_NAMES, lower(name)); }

std::optional<Format> format_from_extension(std::string_view path) {
    auto dot = path.rfind('.');
    if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos)
        return std::nullopt;
    std::string ext = lower(path.substr(dot + 1));
    if (ext == "gam")
        return Format::Psn;  // read by the PSN reader, which knows xshogi's game files
    return format_from_name(ext);
}

Format detect_format(std::string_view bytes) {
    std::string text = to_utf8(bytes.substr(0, std::min<std::size_t>(bytes.size(), 4096)), detect_encoding(bytes)).text;
    auto lines = head_lines(text, 40);
    bool kif_move = false, ki2_move = false;
    for (auto l : lines) {
        if (l.starts_with("position ") || l.starts_with("startpos"))
            return Format::Usi;
        if (l.starts_with("sfen "))
            return Format::Sfen;
        if (l.starts_with("V1") || l.starts_with("V2") || l.starts_with("N+") || l.starts_with("N-")
            || l.starts_with("PI") || l.starts_with("P1") || l.starts_with("$EVENT") || l.starts_with("$START")
            || (l.size() >= 7 && (l[0] == '+' || l[0] == '-') && std::isdigit(static_cast<unsigned char>(l[1]))))
            return Format::Csa;
        if (l.find("手合割") != std::string_view::npos || l.find("手数----") != std::string_view::npos
            || l.starts_with("#KIF"))
            kif_move = true;
        if (l.starts_with("▲") || l.starts_with("△") || l.starts_with("☗") || l.starts_with("☖"))
            ki2_move = true;
        if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0])) && l.find('(') != std::string_view::npos
            && text.find("手") != std::string::npos)
            kif_move = true;
        if (l.starts_with("[") && l.find('"') != std::string_view::npos)
            return Format::Psn;
    }
    if (ki2_move && !kif_move)
        return Format::Ki2;
    if (kif_move || text.find("先手") != std::string::npos || text.find("後手") != std::string::npos)
        return Format::Kif;
    // A lone SFEN.
    if (lines.size() == 1 && std::count(lines[0].begin(), lines[0].end(), '/') == 8)
        return Format::Sfen;
    return Format::Psn;
}

Result<GameRecord, ParseError> read_record(std::string_view bytes, std::string_view path) {
    Format f = format_from_extension(path).value_or(detect_format(bytes));
    switch (f) {
    case Format::Sfen:
    case Format::Usi: {
        std::string text = to_utf8(bytes, Encoding::Utf8).text;
        // Every non-comment line is part of one position string.
        std::string joined;
        for (auto l : head_lines(text, 1 << 20))
            if (l[0] != '#')
                joined += std::string(l) + " ";
        return parse_usi_position(joined);
    }
    case Format::Csa:
    case Format::Csa22: return read_csa(bytes);
    case Format::Kif: return read_kif(bytes);
    case Format::Ki2: return read_ki2(bytes);
    case Format::Psn:
    case Format::Western:
    case Format::Xshogi: return read_psn(to_utf8(bytes, detect_encoding(bytes)).text);
    }
    return read_psn(bytes);
}

std::string write_record(const GameRecord& rec, Format f, Encoding enc) {
    switch (f) {
    case Format::Sfen: {
        std::string s = "sfen " + rec.start_sfen;
        if (!rec.moves.empty()) {
            s += " moves";
            for (const auto& m : rec.moves)
                s += " " + core::to_usi(m.move);
        }
        return s + "\n";
    }
    case Format::Usi: return write_usi_position(rec) + "\n";
    case Format::Csa: return write_csa(rec, CsaVersion::V3_0);
    case Format::Csa22: return write_csa(rec, CsaVersion::V2_2);
    case Format::Kif: return write_kif(rec, enc);
    case Format::Ki2: return write_ki2(rec, enc);
    case Format::Psn: return write_psn(rec);
    case Format::Western: return write_western_list(rec);
    case Format::Xshogi: return write_xshogi_game(rec);
    }
    return {};
}

}  // namespace hisha::notation
