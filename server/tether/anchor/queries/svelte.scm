; Single-file components: symbols live in `<script>` blocks (`<script setup>`, `lang="ts"`), each
; extracted as JavaScript or TypeScript (Language.embedded) at its offset in the component file.
; The template and style are anchored at file level only.
(script_element (raw_text) @embedded)
