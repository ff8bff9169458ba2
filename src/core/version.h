// The program's version, defined once (project(VERSION) in CMakeLists.txt, plus the git commit
// when built from a checkout: "0.1.0+g1a2b3c4"). Every program and protocol that names Hisha's
// version (--version, USI `id name`, the server's banners and HTTP Server header, the web
// page's footer) takes it from here.
#pragma once

namespace hisha {

const char* version();

}  // namespace hisha
