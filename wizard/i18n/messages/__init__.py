"""The message templates of each family, English (`EN`) and Chinese (`ZH`) side by side in one module per family.

`wizard/i18n/messages_en.py` and `messages_zh.py` gather them into one catalogue per language. A family
module holds the keys of one producer (a rule module with the notes and fix labels it gives, or a reader of
detect/ whose notes reach the findings); tests/test_i18n_messages.py checks that both languages have every
key with the parameters its call sites give.
"""
