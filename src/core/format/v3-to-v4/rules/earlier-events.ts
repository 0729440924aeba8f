// What the v4 relationships look back at (a developer message's `headerSeq`, a title's `messageSeqs`,
// a command's `sourceEventSeq`), kept as the events stream past instead of the events themselves:
// request headers whole (few, and a developer message's tool additions bind to one), and for every
// other event one byte saying what a later check may ask of it.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject } from '../../json';

const enum Kind {
  Other = 0,
  Command = 1,
  HumanInput = 2,
  OtherInput = 3,
  /** A user/message whose data is not an object. */
  InputWithoutData = 4,
  /** A user/message whose data has no source object. */
  InputWithoutSource = 5,
}

function inputKind(event: FormatEvent): Kind {
  const data = event.data;
  if (!isJsonObject(data)) return Kind.InputWithoutData;
  if (!isJsonObject(data.source)) return Kind.InputWithoutSource;
  return data.source.kind === 'user' ? Kind.HumanInput : Kind.OtherInput;
}

export class EarlierEvents {
  private kinds = new Uint8Array(4096);
  private readonly requestHeaders = new Map<number, FormatEvent>();

  /** Notes the event at `index`, its place in the artifact (what a seq names in a dense log). Never throws. */
  note(event: FormatEvent, index: number): void {
    if (!isJsonObject(event)) return;
    const type = event.type;
    if (type === 'request/header') {
      this.requestHeaders.set(index, event);
      return;
    }
    let kind: Kind;
    if (type === 'command/run' || type === 'command/done') kind = Kind.Command;
    else if (type === 'user/message') kind = inputKind(event);
    else return;
    if (index >= this.kinds.length) {
      const grown = new Uint8Array(Math.max(this.kinds.length * 2, index + 1));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    this.kinds[index] = kind;
  }

  /** The event at `seq` when it is a request/header. */
  requestHeader(seq: number): FormatEvent | undefined {
    return this.requestHeaders.get(seq);
  }

  /** Whether the event at `seq` is a command/run or a command/done. */
  isCommand(seq: number): boolean {
    return this.kinds[seq] === Kind.Command;
  }

  /** Whether the event at `seq` is a user/message. */
  isUserMessage(seq: number): boolean {
    const kind = this.kinds[seq];
    return kind !== undefined && kind >= Kind.HumanInput;
  }

  /**
   * Whether the user/message at `seq` was typed by a person (its source kind is `user`). Throws, as
   * reading its source does, when its data or source is not an object.
   */
  isHumanInput(seq: number): boolean {
    const kind = this.kinds[seq];
    if (kind === Kind.InputWithoutData) throw new SessionFormatError('title input requires an object');
    if (kind === Kind.InputWithoutSource) throw new SessionFormatError('title input source requires an object');
    return kind === Kind.HumanInput;
  }
}
