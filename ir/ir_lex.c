/*
 * ir_lex.c: TTIR tokenizer. Works on (pointer, length) buffers, rejects NUL
 * bytes and invalid UTF-8, and never allocates: tokens are views into the
 * buffer. Error messages carry the offending source line and a caret.
 */
#include "config.h"
#include "ir_lex.h"

#include <stdio.h>
#include <string.h>

void ir_lex_init(ir_lexer *lx, const char *file, const char *buf, size_t len)
{
  lx->file = file ? file : "<input>";
  lx->buf = buf;
  lx->end = buf + len;
  lx->cur = buf;
  lx->line = 1;
  lx->lstart = buf;
}

void ir_lex_seek(ir_lexer *lx, const char *p, int line, const char *lstart)
{
  lx->cur = p;
  lx->line = line;
  lx->lstart = lstart;
}

ttref_status ir_lex_error(const ir_lexer *lx, ttref_status code, int line, int col, ttref_error *err, const char *fmt,
                          ...)
{
  char body[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ttref_loc loc = {lx->file, line, col};
  ir_error_set(err, code, loc, "%s", body);
  if (!err || line <= 0) return code;
  /* find the line: scan from the start (only on the error path) */
  const char *s = lx->buf;
  for (int l = 1; l < line && s < lx->end; s++)
    if (*s == '\n') l++;
  const char *e = s;
  while (e < lx->end && *e != '\n' && e - s < 200) e++;
  char text[256], caret[256];
  size_t k = 0, c = 0;
  for (const char *q = s; q < e && k < sizeof text - 1; q++) {
    unsigned char ch = (unsigned char)*q;
    text[k++] = (ch == '\t' || (ch >= 0x20 && ch < 0x7f) || ch >= 0x80) && ch != 0 ? (char)ch : '?';
  }
  text[k] = 0;
  /* invalid UTF-8 in the echoed line would corrupt terminals: mask high bytes
   * that do not form valid sequences by masking them all (cheap, safe) */
  for (size_t i = 0; i < k; i++)
    if ((unsigned char)text[i] >= 0x80) text[i] = '?';
  for (const char *q = s; q < lx->end && (int)(q - s) < col - 1 && c < sizeof caret - 2; q++)
    caret[c++] = *q == '\t' ? '\t' : ' ';
  caret[c++] = '^';
  caret[c] = 0;
  ir_error_note(err, "%s", text);
  ir_error_note(err, "%s", caret);
  return code;
}

/* character classes: one table lookup per byte in the token loops */
enum { C_START = 1, C_DIGIT = 2, C_HEX = 4, C_ID = 8, C_SUFFIX = 16 };
static const unsigned char cclass[256] = {['$'] = C_ID | C_SUFFIX,
                                          ['-'] = C_SUFFIX,
                                          ['.'] = C_ID | C_SUFFIX,
                                          ['0'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['1'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['2'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['3'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['4'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['5'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['6'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['7'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['8'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['9'] = C_DIGIT | C_HEX | C_ID | C_SUFFIX,
                                          ['A'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['B'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['C'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['D'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['E'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['F'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['G'] = C_START | C_ID | C_SUFFIX,
                                          ['H'] = C_START | C_ID | C_SUFFIX,
                                          ['I'] = C_START | C_ID | C_SUFFIX,
                                          ['J'] = C_START | C_ID | C_SUFFIX,
                                          ['K'] = C_START | C_ID | C_SUFFIX,
                                          ['L'] = C_START | C_ID | C_SUFFIX,
                                          ['M'] = C_START | C_ID | C_SUFFIX,
                                          ['N'] = C_START | C_ID | C_SUFFIX,
                                          ['O'] = C_START | C_ID | C_SUFFIX,
                                          ['P'] = C_START | C_ID | C_SUFFIX,
                                          ['Q'] = C_START | C_ID | C_SUFFIX,
                                          ['R'] = C_START | C_ID | C_SUFFIX,
                                          ['S'] = C_START | C_ID | C_SUFFIX,
                                          ['T'] = C_START | C_ID | C_SUFFIX,
                                          ['U'] = C_START | C_ID | C_SUFFIX,
                                          ['V'] = C_START | C_ID | C_SUFFIX,
                                          ['W'] = C_START | C_ID | C_SUFFIX,
                                          ['X'] = C_START | C_ID | C_SUFFIX,
                                          ['Y'] = C_START | C_ID | C_SUFFIX,
                                          ['Z'] = C_START | C_ID | C_SUFFIX,
                                          ['_'] = C_START | C_ID | C_SUFFIX,
                                          ['a'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['b'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['c'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['d'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['e'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['f'] = C_START | C_HEX | C_ID | C_SUFFIX,
                                          ['g'] = C_START | C_ID | C_SUFFIX,
                                          ['h'] = C_START | C_ID | C_SUFFIX,
                                          ['i'] = C_START | C_ID | C_SUFFIX,
                                          ['j'] = C_START | C_ID | C_SUFFIX,
                                          ['k'] = C_START | C_ID | C_SUFFIX,
                                          ['l'] = C_START | C_ID | C_SUFFIX,
                                          ['m'] = C_START | C_ID | C_SUFFIX,
                                          ['n'] = C_START | C_ID | C_SUFFIX,
                                          ['o'] = C_START | C_ID | C_SUFFIX,
                                          ['p'] = C_START | C_ID | C_SUFFIX,
                                          ['q'] = C_START | C_ID | C_SUFFIX,
                                          ['r'] = C_START | C_ID | C_SUFFIX,
                                          ['s'] = C_START | C_ID | C_SUFFIX,
                                          ['t'] = C_START | C_ID | C_SUFFIX,
                                          ['u'] = C_START | C_ID | C_SUFFIX,
                                          ['v'] = C_START | C_ID | C_SUFFIX,
                                          ['w'] = C_START | C_ID | C_SUFFIX,
                                          ['x'] = C_START | C_ID | C_SUFFIX,
                                          ['y'] = C_START | C_ID | C_SUFFIX,
                                          ['z'] = C_START | C_ID | C_SUFFIX};
static bool is_id_start(int c) { return cclass[c & 0xFF] & C_START; }
static bool is_digit(int c) { return cclass[c & 0xFF] & C_DIGIT; }
static bool is_hex(int c) { return cclass[c & 0xFF] & C_HEX; }
static bool is_suffix_char(int c) { return cclass[c & 0xFF] & C_SUFFIX; }

/* The end of the run of bytes of class cls (C_DIGIT, C_HEX, C_ID, C_SUFFIX) from q: every token
 * scan of ir_lex_next. */
static const char *span(const char *q, const char *end, unsigned cls)
{
  while (q < end && (cclass[(unsigned char)*q] & cls)) q++;
  return q;
}

/* Length of the valid UTF-8 sequence at p (0 if invalid). */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
  unsigned c = p[0];
  int n;
  unsigned min;
  if (c < 0x80) return c ? 1 : 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    min = 0x80;
    c &= 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    min = 0x800;
    c &= 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    min = 0x10000;
    c &= 0x07;
  } else return 0;
  if (end - p < n) return 0;
  for (int i = 1; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    c = (c << 6) | (p[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  return n;
}

#define COL(q) ((int)((q)-lx->lstart) + 1)

/* Steps *pq over one character of string or comment text: a NUL byte and invalid UTF-8 are
 * errors (in_string picks the message); both scanners below take their text through it. */
static ttref_status text_char(ir_lexer *lx, const char **pq, bool in_string, ttref_error *err)
{
  const char *q = *pq;
  const unsigned char c = (unsigned char)*q;
  if (c == 0)
    return ir_lex_error(lx, TTREF_E_SYNTAX, lx->line, COL(q), err,
                        in_string ? "NUL byte in string" : "NUL byte in input");
  if (c >= 0x80) {
    const int n = utf8_len((const unsigned char *)q, (const unsigned char *)lx->end);
    if (!n)
      return ir_lex_error(lx, TTREF_E_SYNTAX, lx->line, COL(q), err,
                          in_string ? "invalid UTF-8 in string" : "invalid UTF-8 in comment");
    *pq = q + n;
  } else *pq = q + 1;
  return TTREF_OK;
}

/* string -> '"' (char | '\' (["\\nt] | hex hex))* '"' ; cur is at the quote */
static ttref_status lex_string(ir_lexer *lx, const char **pq, ttref_error *err)
{
  const char *q = *pq + 1;
  while (q < lx->end) {
    unsigned char c = (unsigned char)*q;
    if (c == '"') {
      *pq = q + 1;
      return TTREF_OK;
    }
    if (c == '\n' || c == '\r') return ir_lex_error(lx, TTREF_E_SYNTAX, lx->line, COL(*pq), err, "unterminated string");
    if (c == '\\') {
      if (q + 1 >= lx->end) break;
      char d = q[1];
      if (d == '"' || d == '\\' || d == 'n' || d == 't') q += 2;
      else if (q + 2 < lx->end && is_hex(d) && is_hex(q[2])) q += 3;
      else return ir_lex_error(lx, TTREF_E_SYNTAX, lx->line, COL(q), err, "invalid escape in string");
      continue;
    }
    const ttref_status st = text_char(lx, &q, true, err);
    if (st) return st;
  }
  return ir_lex_error(lx, TTREF_E_SYNTAX, lx->line, COL(*pq), err, "unterminated string");
}

size_t ir_lex_unescape(const char *s, size_t n, char *out)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      out[k++] = s[i];
      continue;
    }
    char d = s[i + 1];
    if (d == 'n') {
      out[k++] = '\n';
      i++;
    } else if (d == 't') {
      out[k++] = '\t';
      i++;
    } else if (d == '"' || d == '\\') {
      out[k++] = d;
      i++;
    } else if (i + 2 < n) {
      int v = 0;
      for (int j = 1; j <= 2; j++) {
        char h = s[i + j];
        v = v * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      out[k++] = (char)v;
      i += 2;
    }
  }
  return k;
}

ttref_status ir_lex_next(ir_lexer *lx, ir_token *t, ttref_error *err)
{
  const char *q = lx->cur;
  /* whitespace and comments */
  for (;;) {
    if (q >= lx->end) break;
    char c = *q;
    if (c == ' ' || c == '\t' || c == '\r') {
      q++;
      continue;
    }
    if (c == '\n') {
      q++;
      lx->line++;
      lx->lstart = q;
      continue;
    }
    if (c == '/' && q + 1 < lx->end && q[1] == '/') {
      while (q < lx->end && *q != '\n') {
        const ttref_status st = text_char(lx, &q, false, err);
        if (st) return st;
      }
      continue;
    }
    break;
  }
  t->p = q;
  t->line = lx->line;
  t->col = COL(q);
  if (q >= lx->end) {
    t->kind = IR_TK_EOF;
    t->n = 0;
    lx->cur = q;
    return TTREF_OK;
  }
  const char *s = q;
  unsigned char c = (unsigned char)*q;
  ir_tok_kind k;
  switch (c) {
  case '(':
    k = IR_TK_LPAREN;
    q++;
    break;
  case ')':
    k = IR_TK_RPAREN;
    q++;
    break;
  case '{':
    k = IR_TK_LBRACE;
    q++;
    break;
  case '}':
    k = IR_TK_RBRACE;
    q++;
    break;
  case '[':
    k = IR_TK_LBRACKET;
    q++;
    break;
  case ']':
    k = IR_TK_RBRACKET;
    q++;
    break;
  case '<':
    k = IR_TK_LT;
    q++;
    break;
  case '>':
    k = IR_TK_GT;
    q++;
    break;
  case ',':
    k = IR_TK_COMMA;
    q++;
    break;
  case '=':
    k = IR_TK_EQUAL;
    q++;
    break;
  case '*':
    k = IR_TK_STAR;
    q++;
    break;
  case '?':
    k = IR_TK_QUESTION;
    q++;
    break;
  case '+':
    k = IR_TK_PLUS;
    q++;
    break;
  case '|':
    k = IR_TK_VBAR;
    q++;
    break;
  case ':':
    q++;
    k = IR_TK_COLON;
    if (q < lx->end && *q == ':') {
      q++;
      k = IR_TK_COLONCOLON;
    }
    break;
  case '"':
    if (lex_string(lx, &q, err)) return TTREF_E_SYNTAX;
    k = IR_TK_STRING;
    break;
  case '%':
  case '^':
  case '#':
  case '!':
  case '@': {
    q++;
    k = c == '%' ? IR_TK_PERCENT : c == '^' ? IR_TK_CARET : c == '#' ? IR_TK_HASH : c == '!' ? IR_TK_BANG : IR_TK_AT;
    if (c == '@' && q < lx->end && *q == '"') {
      if (lex_string(lx, &q, err)) return TTREF_E_SYNTAX;
      break;
    }
    if (q < lx->end && is_digit((unsigned char)*q)) {
      q = span(q, lx->end, C_DIGIT);
    } else if (q < lx->end && (is_suffix_char((unsigned char)*q))) {
      q = span(q, lx->end, C_SUFFIX);
    } else {
      return ir_lex_error(lx, TTREF_E_SYNTAX, t->line, t->col, err, "expected identifier after '%c'", c);
    }
    if (c == '%' && q + 1 < lx->end && *q == '#' && is_digit((unsigned char)q[1])) {
      q++;
      q = span(q, lx->end, C_DIGIT);
    }
    break;
  }
  case '-':
    if (q + 1 < lx->end && q[1] == '>') {
      k = IR_TK_ARROW;
      q += 2;
      break;
    }
    if (!(q + 1 < lx->end && is_digit((unsigned char)q[1]))) {
      k = IR_TK_MINUS;
      q++;
      break;
    }
    q++;
    /* fallthrough */
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7':
  case '8':
  case '9':
    k = IR_TK_INT;
    if (*q == '0' && q + 2 <= lx->end && q + 1 < lx->end && q[1] == 'x' && q + 2 < lx->end &&
        is_hex((unsigned char)q[2])) {
      q += 2;
      q = span(q, lx->end, C_HEX);
      break;
    }
    q = span(q, lx->end, C_DIGIT);
    if (q < lx->end && *q == '.') {
      k = IR_TK_FLOAT;
      q++;
      q = span(q, lx->end, C_DIGIT);
      if (q < lx->end && (*q == 'e' || *q == 'E')) {
        const char *r = q + 1;
        if (r < lx->end && (*r == '+' || *r == '-')) r++;
        if (r < lx->end && is_digit((unsigned char)*r)) {
          r = span(r, lx->end, C_DIGIT);
          q = r;
        }
      }
    }
    break;
  default:
    if (is_id_start(c)) {
      k = IR_TK_IDENT;
      q = span(q, lx->end, C_ID);
      break;
    }
    if (c == 0) return ir_lex_error(lx, TTREF_E_SYNTAX, t->line, t->col, err, "NUL byte in input");
    if (c >= 0x80 && !utf8_len((const unsigned char *)q, (const unsigned char *)lx->end))
      return ir_lex_error(lx, TTREF_E_SYNTAX, t->line, t->col, err, "invalid UTF-8 byte 0x%02X", c);
    if (c < 0x20 || c >= 0x7f)
      return ir_lex_error(lx, TTREF_E_SYNTAX, t->line, t->col, err, "unexpected byte 0x%02X", c);
    return ir_lex_error(lx, TTREF_E_SYNTAX, t->line, t->col, err, "unexpected character '%c'", c);
  }
  t->kind = k;
  t->p = s;
  t->n = (size_t)(q - s);
  lx->cur = q;
  return TTREF_OK;
}
