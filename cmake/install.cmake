# What `cmake --install` puts where, and the Debian package CPack makes of it.
#   bin/hisha, bin/hisha-server                 the programs
#   share/hisha/web/                            the web UI (web/dist, built by `make web`)
#   share/hisha/book.sfen                       the built-in opening book as a file (BookFile)
#   share/man/man6/hisha.6, man8/hisha-server.8 the manual pages
#   share/doc/hisha/                            README, the docs, the licence
install(TARGETS hisha hisha-server RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(HISHA_WEB_DIST ${PROJECT_SOURCE_DIR}/web/dist)
install(CODE "
  if(NOT EXISTS \"${HISHA_WEB_DIST}/index.html\")
    message(FATAL_ERROR \"the web UI is not built: run `make web` (npm run build in web/) before installing\")
  endif()")
install(DIRECTORY ${HISHA_WEB_DIST}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hisha/web)
install(FILES ${PROJECT_SOURCE_DIR}/src/engine/book/default_book.sfen DESTINATION ${CMAKE_INSTALL_DATADIR}/hisha
        RENAME book.sfen)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/hisha.6 DESTINATION ${CMAKE_INSTALL_MANDIR}/man6)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/hisha-server.8 DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/architecture.md
              ${PROJECT_SOURCE_DIR}/docs/protocols.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)

# The Debian package: hisha_<version>_<arch>.deb. Its shared-library dependencies are found by
# dpkg-shlibdeps (dpkg-dev) from the binaries themselves (libfmt9 for both programs' messages,
# libspdlog1.10 for the server's log; CLI11 is header-only); the rest are named here.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hisha)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "The Hisha developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "shogi (Japanese chess): engine, GNU Shogi compatible program, game server and web UI")
set(CPACK_PACKAGE_DESCRIPTION "Hisha is a complete shogi system: a USI engine and tsume solver, an
interactive program compatible with GNU Shogi (raw, curses and xshogi displays), a game server
speaking the Shoogi Server text commands, CSA and HTTP/WebSocket, and a web UI.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xshogi, postgresql")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
