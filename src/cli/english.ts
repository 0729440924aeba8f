// The CLI speaks English, whatever the machine's language: its output is read by scripts and compared
// by tests byte for byte, so the presentation layer's words stay untranslated here.
import { Formatter } from '../present';

export const english = new Formatter();
