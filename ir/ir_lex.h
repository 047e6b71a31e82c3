/*
 * ir_lex.h: tokenizer for TTIR (MLIR text) over a byte buffer that need not
 * be NUL-terminated; tracks 1-based line/column of every token.
 * Ownership: the lexer borrows its buffer and file name for its whole life;
 * tokens point into the buffer and allocate nothing.
 */
#ifndef IR_LEX_H
#define IR_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir_base.h"

typedef enum ir_tok_kind {
  IR_TK_EOF,
  IR_TK_IDENT,   /* bare-id with dots: tt.make_range, i32, x */
  IR_TK_PERCENT, /* %name, %0, %x#1 (text includes the '%') */
  IR_TK_CARET,   /* ^bb0 */
  IR_TK_AT,      /* @sym or @"quoted sym" */
  IR_TK_HASH,    /* #loc3, #llvm.loop_annotation */
  IR_TK_BANG,    /* !tt.ptr */
  IR_TK_INT,     /* 12, -3, 0x7E00 */
  IR_TK_FLOAT,   /* 1.0, -2.5e+03 */
  IR_TK_STRING,  /* "..." (text includes the quotes, escapes undecoded) */
  IR_TK_LPAREN,
  IR_TK_RPAREN,
  IR_TK_LBRACE,
  IR_TK_RBRACE,
  IR_TK_LBRACKET,
  IR_TK_RBRACKET,
  IR_TK_LT,
  IR_TK_GT,
  IR_TK_COLON,
  IR_TK_COLONCOLON,
  IR_TK_COMMA,
  IR_TK_EQUAL,
  IR_TK_ARROW,
  IR_TK_STAR,
  IR_TK_QUESTION,
  IR_TK_PLUS,
  IR_TK_MINUS,
  IR_TK_VBAR,
} ir_tok_kind;

typedef struct ir_token {
  ir_tok_kind kind;
  const char *p; /* first byte in the buffer */
  size_t n;      /* length in bytes */
  int line, col; /* 1-based */
} ir_token;

typedef struct ir_lexer {
  const char *file; /* name used in messages (borrowed) */
  const char *buf, *end, *cur;
  int line;           /* line of cur */
  const char *lstart; /* first byte of cur's line */
} ir_lexer;

/* Start lexing buf[0..len). */
void ir_lex_init(ir_lexer *lx, const char *file, const char *buf, size_t len);
/* Next token into *t; TTREF_E_SYNTAX with a located message (and the source
 * line plus a caret in err->note) on malformed input. */
ttref_status ir_lex_next(ir_lexer *lx, ir_token *t, ttref_error *err);
/* Move the cursor (used after character-level type parsing). */
void ir_lex_seek(ir_lexer *lx, const char *p, int line, const char *lstart);
/* Decode the body of a string token (without quotes) into out (at least n
 * bytes); returns the decoded length. The lexer has validated the escapes. */
size_t ir_lex_unescape(const char *s, size_t n, char *out);
/* Located error: err->msg = "file:line:col: error: ..." and err->note = the
 * source line of buf with a caret under col. Returns code. */
ttref_status ir_lex_error(const ir_lexer *lx, ttref_status code, int line, int col, ttref_error *err, const char *fmt,
                          ...) __attribute__((format(printf, 6, 7)));

#endif
