// Monocypher's Ed25519 check (RFC 8032, with SHA-512) as a MicroPython module, so a board
// checks a signature in C, not in Python (issue 40).  Only the glue is here: the
// cryptography is Monocypher 4.0.3's own (../shared/monocypher), compiled as it ships.
//
//     import monocypher
//     monocypher.ed25519_check(signature, public_key, message)  -> True or False
//
// signature: 64 bytes, public_key: 32 bytes, message: any buffer; a wrong length or a
// non-buffer raises (felt.ed25519 checks lengths and types before it calls).  Monocypher's
// check is the cofactored equation, [8]([S]B - [k]A - R) = 0, refusing S >= L and any A or
// R that is no point; felt.ed25519 refuses non-canonical and small-order encodings first.

#include "py/runtime.h"
#include "monocypher-ed25519.h"

static mp_obj_t monocypher_ed25519_check(mp_obj_t signature_in, mp_obj_t key_in,
                                         mp_obj_t message_in) {
    mp_buffer_info_t signature, key, message;
    mp_get_buffer_raise(signature_in, &signature, MP_BUFFER_READ);
    mp_get_buffer_raise(key_in, &key, MP_BUFFER_READ);
    mp_get_buffer_raise(message_in, &message, MP_BUFFER_READ);
    if (signature.len != 64 || key.len != 32) {
        mp_raise_ValueError(MP_ERROR_TEXT("a signature is 64 bytes and a key 32"));
    }
    int refused = crypto_ed25519_check(signature.buf, key.buf, message.buf, message.len);
    return mp_obj_new_bool(refused == 0);
}
static MP_DEFINE_CONST_FUN_OBJ_3(monocypher_ed25519_check_obj, monocypher_ed25519_check);

static const mp_rom_map_elem_t monocypher_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_monocypher) },
    { MP_ROM_QSTR(MP_QSTR_ed25519_check), MP_ROM_PTR(&monocypher_ed25519_check_obj) },
};
static MP_DEFINE_CONST_DICT(monocypher_globals, monocypher_globals_table);

const mp_obj_module_t monocypher_user_cmodule = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&monocypher_globals,
};

MP_REGISTER_MODULE(MP_QSTR_monocypher, monocypher_user_cmodule);
