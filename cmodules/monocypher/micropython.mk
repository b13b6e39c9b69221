# The monocypher module for a Make-built port (the unix port): `make USER_C_MODULES=<cmodules>
# MONOCYPHER_DIR=<Monocypher's src/>`; Felt's Makefile unpacks ../shared/monocypher there.
ifeq ($(MONOCYPHER_DIR),)
$(error MONOCYPHER_DIR: the src/ folder of Monocypher 4.0.3 is needed)
endif
SRC_USERMOD_C += $(USERMOD_DIR)/modmonocypher.c
# Monocypher's own files are a library: not scanned for MicroPython's names.
SRC_USERMOD_LIB_C += $(MONOCYPHER_DIR)/monocypher.c $(MONOCYPHER_DIR)/optional/monocypher-ed25519.c
CFLAGS_USERMOD += -I$(MONOCYPHER_DIR) -I$(MONOCYPHER_DIR)/optional
