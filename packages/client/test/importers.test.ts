import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  detectFormat,
  importTranscript,
  parseGong,
  parsePlainText,
  parseSrt,
  parseWebVtt,
  TranscriptImportError,
} from '../src/index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('WebVTT', () => {
  it('reads Teams voice tags, decodes entities and joins multi-line cues', () => {
    expect(parseWebVtt(fixture('teams.vtt'))).toEqual([
      { speaker: 'Ada Park', text: 'Hi Sam, thanks for making the time today.', start_ms: 3590 },
      { speaker: 'Ada Park', text: "I'd love to hear what prompted you to reach out.", start_ms: 7150 },
      {
        speaker: 'Sam Lee (Globex)',
        text: 'Sure. Our renewals team is drowning in spreadsheets & manual follow-ups.',
        start_ms: 10_800,
      },
      { speaker: 'Ada Park', text: 'How many renewals a month are we talking about?', start_ms: 16_900 },
    ]);
  });

  it('reads Zoom "Name: text" cue bodies', () => {
    const segments = parseWebVtt(fixture('zoom.vtt'));
    expect(segments.map((s) => s.speaker)).toEqual(['Ada Park', 'Ada Park', 'Sam Lee', 'Priya Nair']);
    expect(segments[1]).toEqual({
      speaker: 'Ada Park',
      text: 'Before we dive in, what does success look like for this quarter?',
      start_ms: 4410,
    });
  });

  it('handles mm:ss.mmm, STYLE/NOTE blocks, <c>/<b> tags, several voices per cue, and continuation cues', () => {
    expect(parseWebVtt(fixture('meet.vtt'))).toEqual([
      { speaker: 'Ada Park', text: 'Can everyone hear me?', start_ms: 2000 },
      { speaker: 'Sam Lee', text: 'Yes, loud and clear.', start_ms: 5500 },
      { speaker: 'Priya Nair', text: 'Same here.', start_ms: 5500 },
      { speaker: 'Ada Park', text: "Great, let's wrap up with next steps,", start_ms: 3_723_004 },
      // A cue without a voice continues the last speaker.
      { speaker: 'Ada Park', text: 'and I will send the invite.', start_ms: 3_725_000 },
    ]);
  });

  it('rejects captions without speakers, saying which layout is expected', () => {
    const err = (() => {
      try {
        parseWebVtt(fixture('unlabeled.vtt'));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TranscriptImportError);
    expect(err).toMatchObject({ code: 'transcript_unlabeled', format: 'webvtt' });
    expect((err as Error).message).toContain('<v Ada Park>');
  });
});

describe('SRT', () => {
  it('reads speaker prefixes, dialogue dashes, tags and continuation cues', () => {
    expect(parseSrt(fixture('call.srt'))).toEqual([
      { speaker: 'Ada Park', text: 'Thanks for joining, Sam.', start_ms: 500 },
      { speaker: 'Ada Park', text: 'I saw you downloaded the pricing guide last week.', start_ms: 3200 },
      { speaker: 'SAM LEE', text: "Right, we're comparing a few vendors.", start_ms: 8100 },
      { speaker: 'Ada Park', text: 'Which ones?', start_ms: 11_000 },
      { speaker: 'Sam Lee', text: 'Mostly Acme and Initech.', start_ms: 11_000 },
      { speaker: 'Sam Lee', text: 'Nothing beyond that yet.', start_ms: 3_613_400 },
    ]);
  });

  it('rejects an SRT without speaker prefixes', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\n00:00:02,000 --> 00:00:03,000\nhi\n';
    expect(() => parseSrt(srt)).toThrow(/start with the speaker/);
  });
});

describe('Gong', () => {
  it('maps speaker ids to party names and monologues to segments', () => {
    const transcript = JSON.parse(fixture('gong-transcript.json'));
    const parties = JSON.parse(fixture('gong-calls-extensive.json')).calls[0].parties;
    const { segments, participants } = parseGong(transcript, { parties });
    expect(segments).toEqual([
      { speaker: 'Ada Park', text: 'Hi Sam, thanks for hopping on. Is it still a good time?', start_ms: 460 },
      { speaker: 'Sam Lee', text: 'Yes, I have half an hour.', start_ms: 5800 },
      { speaker: 'Ada Park', text: "Great. Let's start with your budget for this year.", start_ms: 9000 },
    ]);
    // Only external parties become customers: an internal party may be the rep.
    expect(participants).toEqual([
      { role: 'customer', name: 'Sam Lee', email: 'sam.lee@globex.test' },
      { role: 'customer', name: 'Dana Cho', email: 'cfo@globex.test' },
    ]);
  });

  it('reads parties from a combined file and falls back to "Speaker <id>" with a warning', () => {
    const transcript = JSON.parse(fixture('gong-transcript.json'));
    const combined = { ...transcript, calls: JSON.parse(fixture('gong-calls-extensive.json')).calls };
    expect(importTranscript(combined).segments[0]?.speaker).toBe('Ada Park');

    const bare = importTranscript(fixture('gong-transcript.json'), { filename: 'transcript.json' });
    expect(bare.format).toBe('gong');
    expect(bare.segments.map((s) => s.speaker)).toEqual([
      'Speaker 6432345678555530067',
      'Speaker 9921345678555530011',
      'Speaker 6432345678555530067',
    ]);
    expect(bare.warnings.join(' ')).toMatch(/No party names/);
  });

  it('asks for callId when the export holds several calls', () => {
    const one = JSON.parse(fixture('gong-transcript.json'));
    const two = { callTranscripts: [one.callTranscripts[0], { ...one.callTranscripts[0], callId: '42' }] };
    expect(() => parseGong(two)).toThrow(expect.objectContaining({ code: 'call_not_selected' }));
    expect(parseGong(two, { callId: '42' }).segments).toHaveLength(3);
  });
});

describe('plain text', () => {
  it('reads "Name: text" lines; unlabeled lines continue the turn', () => {
    expect(parsePlainText(fixture('lines.txt'))).toEqual([
      { speaker: 'Ada Park', text: 'Thanks for taking the call, Sam.', start_ms: null },
      { speaker: 'Sam Lee', text: 'Happy to. We have about twenty minutes.', start_ms: null },
      {
        speaker: 'Ada Park',
        text: 'Perfect. Agenda: your current process, then pricing. It should not take long.',
        start_ms: null,
      },
      { speaker: 'Sam Lee', text: 'Sounds good.', start_ms: null },
    ]);
  });

  it('reads "[mm:ss] Name" headers; a colon inside the utterance is not a speaker', () => {
    expect(parsePlainText(fixture('headers-bracket.txt'))).toEqual([
      {
        speaker: 'Ada Park',
        text: 'Thanks for taking the call, Sam. Agenda: your current process, then pricing.',
        start_ms: 4000,
      },
      { speaker: 'Sam Lee', text: 'Happy to. We have about twenty minutes.', start_ms: 11_000 },
      { speaker: 'Ada Park', text: "Let's book the follow-up.", start_ms: 3_735_000 },
    ]);
  });

  it('reads "mm:ss - Name" headers', () => {
    expect(parsePlainText(fixture('headers-dash.txt'))).toEqual([
      { speaker: 'Ada Park', text: 'Thanks for taking the call.', start_ms: 4000 },
      { speaker: 'Sam Lee', text: 'Happy to.', start_ms: 9000 },
    ]);
  });

  it('rejects prose without labels and explains both layouts', () => {
    expect(() => importTranscript(fixture('unlabeled.txt'), { filename: 'notes.txt' })).toThrow(
      expect.objectContaining({
        code: 'transcript_unlabeled',
        message: expect.stringContaining('[01:23] Ada Park'),
      }),
    );
  });

  it('does not take a lowercase sentence before a colon for a speaker', () => {
    const segments = parsePlainText('Ada Park: Two things.\nthe first one is: pricing\nSam Lee: Ok.');
    expect(segments.map((s) => s.speaker)).toEqual(['Ada Park', 'Sam Lee']);
    expect(segments[0]?.text).toBe('Two things. the first one is: pricing');
  });

  it('splits a turn longer than 20,000 characters into several segments', () => {
    const long = Array.from({ length: 5000 }, (_, i) => `word${i}`).join(' ');
    const segments = parsePlainText(`Ada Park: ${long}\nSam Lee: ok`);
    const ada = segments.filter((s) => s.speaker === 'Ada Park');
    expect(ada.length).toBeGreaterThan(1);
    expect(ada.every((s) => s.text.length <= 20_000)).toBe(true);
    expect(ada.map((s) => s.text).join(' ')).toBe(long);
  });

  it('drops unlabeled text before the first speaker, with a warning', () => {
    const result = importTranscript('Recorded 4 March\nAda Park: Hello.\nSam Lee: Hi.', { format: 'text' });
    expect(result.segments.map((s) => s.speaker)).toEqual(['Ada Park', 'Sam Lee']);
    expect(result.warnings).toHaveLength(1);
  });
});

describe('detectFormat and importTranscript', () => {
  it('detects by content first, then by extension', () => {
    expect(detectFormat('call.txt', fixture('teams.vtt'))).toBe('webvtt');
    expect(detectFormat(undefined, fixture('call.srt'))).toBe('srt');
    expect(detectFormat(undefined, fixture('gong-transcript.json'))).toBe('gong');
    expect(detectFormat('call.vtt', '00:01.000 --> 00:02.000\nAda: hi')).toBe('webvtt');
    expect(detectFormat('call.srt', 'Ada: hi')).toBe('srt');
    expect(detectFormat('notes.txt', fixture('lines.txt'))).toBe('text');
    expect(detectFormat(undefined, fixture('headers-dash.txt'))).toBe('text');
    expect(detectFormat(undefined, Buffer.from('\uFEFFWEBVTT\n\n'))).toBe('webvtt');
  });
});
