#include "engine/nnue/builtin_net.h"

#include <string>

#ifdef HISHA_BUILTIN_NET
// The file's bytes in .rodata, between two symbols (64-byte aligned for the loader's copy).
asm(".section .rodata\n"
    ".balign 64\n"
    ".globl hisha_builtin_net_begin\n"
    "hisha_builtin_net_begin:\n"
    ".incbin \"" HISHA_BUILTIN_NET "\"\n"
    ".globl hisha_builtin_net_end\n"
    "hisha_builtin_net_end:\n"
    ".previous\n");
extern "C" const char hisha_builtin_net_begin[];
extern "C" const char hisha_builtin_net_end[];
#endif

namespace hisha::engine::nnue {

std::string_view builtin_net_bytes() {
#ifdef HISHA_BUILTIN_NET
    return {hisha_builtin_net_begin, std::size_t(hisha_builtin_net_end - hisha_builtin_net_begin)};
#else
    return {};
#endif
}

std::shared_ptr<const Network> builtin_net() {
    static const std::shared_ptr<const Network> net = []() -> std::shared_ptr<const Network> {
        std::string_view bytes = builtin_net_bytes();
        if (bytes.empty())
            return nullptr;
        auto r = Network::parse(std::string(bytes));
        return r ? std::make_shared<const Network>(std::move(r.value())) : nullptr;
    }();
    return net;
}

}  // namespace hisha::engine::nnue
