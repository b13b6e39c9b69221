# The monocypher module for a CMake-built port (rp2): USER_C_MODULES names this file and
# MONOCYPHER_DIR (a CMake variable, from CMAKE_ARGS) Monocypher 4.0.3's src/ folder;
# Felt's Makefile unpacks ../shared/monocypher there.
if(NOT MONOCYPHER_DIR)
    message(FATAL_ERROR "MONOCYPHER_DIR: the src/ folder of Monocypher 4.0.3 is needed")
endif()
add_library(usermod_monocypher INTERFACE)
target_sources(usermod_monocypher INTERFACE
    ${CMAKE_CURRENT_LIST_DIR}/modmonocypher.c
    ${MONOCYPHER_DIR}/monocypher.c
    ${MONOCYPHER_DIR}/optional/monocypher-ed25519.c
)
target_include_directories(usermod_monocypher INTERFACE
    ${MONOCYPHER_DIR}
    ${MONOCYPHER_DIR}/optional
)
target_link_libraries(usermod INTERFACE usermod_monocypher)
