// Openings: lines, records and directories.
#include "openings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/handicap.h"
#include "core/text.h"
#include "notation/formats.h"
#include "notation/psn.h"
#include "notation/usi.h"

namespace hisha::match {

namespace fs = std::filesystem;
using notation::GameRecord;
using RecordList = core::Result<std::vector<GameRecord>, notation::ParseError>;

namespace {

Opening from_record(const GameRecord& rec, std::string name) {
    return Opening{std::move(name), rec.start_sfen, rec.main_line()};
}

RecordList one(core::Result<GameRecord, notation::ParseError> r) {
    if (!r)
        return core::unexpected(r.error());
    return std::vector<GameRecord>{std::move(*r)};
}

// A record file: PSN and xshogi game files may hold several games; any other format one.
RecordList read_records(std::string_view bytes, const fs::path& path, const std::string& ext) {
    if (ext == ".psn" || ext == ".pgn")
        return notation::read_psn_games(bytes);
    return one(notation::read_record(bytes, path.string()));
}

bool is_record_extension(const std::string& ext) {
    for (const char* e : {".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".psn", ".pgn", ".gam", ".game"})
        if (ext == e)
            return true;
    return false;
}

core::Result<std::vector<Opening>, std::string> from_records(const RecordList& recs, const std::string& name) {
    if (!recs)
        return core::unexpected(name + ": " + recs.error().to_string());
    std::vector<Opening> out;
    for (std::size_t i = 0; i < recs->size(); ++i)
        out.push_back(from_record((*recs)[i], recs->size() == 1 ? name : name + "#" + std::to_string(i + 1)));
    return out;
}

core::Result<std::vector<Opening>, std::string> read_lines(std::string_view text, const std::string& name) {
    std::vector<Opening> out;
    std::istringstream in{std::string(text)};
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        auto r = parse_opening_line(line, name + ":" + std::to_string(n));
        if (!r)
            return core::unexpected(r.error());
        out.insert(out.end(), r->begin(), r->end());
    }
    return out;
}

core::Result<std::vector<Opening>, std::string> load_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::unexpected("cannot read openings file " + path.string());
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::string name = path.filename().string();
    if (is_record_extension(ext))
        return from_records(read_records(bytes, path, ext), name);
    auto lines = read_lines(bytes, name);
    if (lines)
        return lines;
    auto recs = read_records(bytes, path, ext);
    if (recs)
        return from_records(recs, name);
    return core::unexpected(lines.error());  // as lines it said more about what is wrong
}

}  // namespace

Opening startpos_opening() { return Opening{"startpos", std::string(core::START_SFEN), {}}; }

core::Result<std::vector<Opening>, std::string> parse_opening_line(std::string_view line, std::string name) {
    std::string_view s = text::trim_view(line);
    if (s.empty() || s.front() == '#')
        return std::vector<Opening>{};
    std::string_view h = s.substr(0, 9) == "handicap " ? text::trim_view(s.substr(9)) : s;
    if (auto hc = core::handicap_from_name(h))
        return std::vector<Opening>{Opening{std::move(name), std::string(core::handicap_info(*hc).sfen), {}}};
    auto rec = notation::parse_usi_position(s);
    if (!rec)
        return core::unexpected(name + ": " + rec.error().to_string());
    return std::vector<Opening>{from_record(*rec, std::move(name))};
}

core::Result<std::vector<Opening>, std::string> load_openings(const std::string& path, int max_plies) {
    std::error_code ec;
    core::Result<std::vector<Opening>, std::string> r = std::vector<Opening>{};
    if (fs::is_directory(path, ec)) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(path, ec))
            if (e.is_regular_file())
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            auto one_file = load_file(f);
            if (!one_file)
                return one_file;
            r->insert(r->end(), one_file->begin(), one_file->end());
        }
    } else {
        r = load_file(path);
    }
    if (r && max_plies > 0)
        for (auto& o : *r)
            if (int(o.moves.size()) > max_plies)
                o.moves.resize(std::size_t(max_plies));
    if (r && r->empty())
        return core::unexpected("no opening in " + path);
    return r;
}

}  // namespace hisha::match
