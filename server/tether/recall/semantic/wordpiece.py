"""BERT's uncased WordPiece tokenizer, as the MiniLM model was trained with it.

Two steps, as the original: a basic split (control characters dropped, lower case, accents
stripped, every punctuation mark and CJK ideograph its own word), then greedy longest-match
pieces from the model's vocab.txt, `##` marking a piece inside a word. Pure Python: a task is a
few dozen words.
"""

from __future__ import annotations

import unicodedata

MAX_WORD_CHARS = 100  # longer "words" (a hash, a URL) are one unknown piece, as in BERT


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True  # ASCII symbols count as punctuation in BERT ($, ^, `)
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


class WordPiece:
    """`ids(text)`: [CLS] pieces [SEP], at most `max_len` ids."""

    def __init__(self, vocab_path: str) -> None:
        with open(vocab_path, encoding="utf-8") as f:
            self.vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]

    def words(self, text: str) -> list[str]:
        kept = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD:
                continue
            if ch.isspace():
                kept.append(" ")
            elif unicodedata.category(ch).startswith("C"):
                continue
            else:
                kept.append(ch)
        text = unicodedata.normalize("NFD", "".join(kept).lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
        out: list[str] = []
        for word in text.split():
            start = 0
            for i, ch in enumerate(word):
                if _is_punct(ch) or _is_cjk(ord(ch)):
                    if i > start:
                        out.append(word[start:i])
                    out.append(ch)
                    start = i + 1
            if start < len(word):
                out.append(word[start:])
        return out

    def pieces(self, word: str) -> list[int]:
        if len(word) > MAX_WORD_CHARS:
            return [self.unk]
        ids, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk]
            ids.append(found)
            start = end
        return ids

    def ids(self, text: str, max_len: int) -> list[int]:
        body: list[int] = []
        for word in self.words(text):
            body += self.pieces(word)
            if len(body) >= max_len - 2:
                break
        return [self.cls, *body[: max_len - 2], self.sep]
