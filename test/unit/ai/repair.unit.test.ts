/** Reading a model's answer back without asking again (domain/ai/repair.ts). */
import {
  echoedInstruction,
  editingTalk,
  endAtSentence,
  joinContinuation,
  jsonCandidates,
  stripChatter,
} from '../../../domain/ai/repair';

describe('jsonCandidates', () => {
  test('raw line breaks and tabs inside strings (invalid JSON) are escaped, those between members left', () => {
    expect(jsonCandidates('{\n  "post": "Line one.\nLine two.\tEnd",\n  "tags": ["a"]\n}')).toEqual([
      { post: 'Line one.\nLine two.\tEnd', tags: ['a'] },
    ]);
  });

  test('a fenced or wrapped answer, and trailing commas', () => {
    expect(jsonCandidates('```json\n{"a": [1, 2, 3], "b": "x"}\n```')).toEqual([{ a: [1, 2, 3], b: 'x' }]);
    expect(jsonCandidates('Sure! {"a": [1, 2,], "b": "x",} Hope it helps.')).toEqual([{ a: [1, 2], b: 'x' }]);
  });

  test('an answer cut mid-structure: complete members first, latest first, and never a key without its value', () => {
    const c = jsonCandidates('{"title": "T", "items": [{"h": "one", "k": ["a", "b"]}, {"h": "two", "k": ["c');
    expect(c[0]).toEqual({ title: 'T', items: [{ h: 'one', k: ['a', 'b'] }, { h: 'two' }] });
    expect(c).toContainEqual({ title: 'T', items: [{ h: 'one', k: ['a', 'b'] }] });
    expect(c).toContainEqual({ title: 'T' });
    expect(new Set(c.map((x) => JSON.stringify(x))).size).toBe(c.length);
    expect(jsonCandidates('{"title": "T", "next":')).toEqual([{ title: 'T' }]);
  });

  test('a string cut mid-way is closed only as the last resort', () => {
    expect(jsonCandidates('{"title": "T", "body": "half a sent')).toEqual([
      { title: 'T' },
      { title: 'T', body: 'half a sent' },
    ]);
  });

  test('no object at all', () => {
    expect(jsonCandidates('I cannot help with that.')).toEqual([]);
    expect(jsonCandidates('[1, 2]')).toEqual([]);
  });
});

describe('Markdown cut at the output limit', () => {
  test('endAtSentence keeps whole sentences, lines and headings', () => {
    expect(endAtSentence('One. Two is cut')).toBe('One.');
    expect(endAtSentence('## Head\nSome text. More')).toBe('## Head\nSome text.');
    expect(endAtSentence('Done!  ')).toBe('Done!');
    expect(endAtSentence('He said "stop." Then')).toBe('He said "stop."');
    expect(endAtSentence('no sentence end at all')).toBe('no sentence end at all');
  });

  test('joinContinuation drops what the continuation repeats and keeps words whole', () => {
    expect(joinContinuation('We write the plan for the launch and', 'for the launch and then we ship.')).toBe(
      'We write the plan for the launch and then we ship.',
    );
    expect(joinContinuation('market', 'ing works.')).toBe('marketing works.');
    expect(joinContinuation('First paragraph.', '\n\nSecond.')).toBe('First paragraph.\n\nSecond.');
    expect(joinContinuation('Ends with a space ', '  next.')).toBe('Ends with a space next.');
    // Two or more whole words repeated are a restart; one word, or part of one, is not.
    expect(joinContinuation('Turning helps. [2] What', '[2] What goes in first.')).toBe(
      'Turning helps. [2] What goes in first.',
    );
    expect(joinContinuation('It is so that', ' that matters.')).toBe('It is so that that matters.');
    expect(joinContinuation('Plant the green', ' the greenhouse is warm.')).toBe(
      'Plant the green the greenhouse is warm.',
    );
  });
});

describe('echoedInstruction', () => {
  const prompt = [
    {
      role: 'system',
      content:
        'You are a professional blog writer. Use only facts stated in the numbered sources; cite them as [n]. Never invent numbers, names, quotes or dates.',
    },
    { role: 'user', content: 'Write about composting at home for beginners in a friendly tone, please.' },
  ];
  test('an answer that writes its system instructions back', () => {
    expect(
      echoedInstruction(
        'https://x.example\nYou are a professional blog writer. Use only facts stated in the numbered   sources; cite them as [n].',
        prompt,
      ),
    ).toBe('Use only facts stated in the numbered sources; cite them as [n].');
  });
  test('an answer that writes a labelled field of the brief back (the default model, 2026-11-27)', () => {
    const brief = [
      ...prompt,
      {
        role: 'user',
        content:
          'Section: Baking sourdough bread at home\nKey points: a healthy starter doubles within eight hours of feeding\nTone: friendly',
      },
    ];
    expect(
      echoedInstruction(
        'Section: Baking sourdough bread at home\nKey points: a healthy starter doubles within eight hours of feeding',
        brief,
      ),
    ).toBe('Section: Baking sourdough bread at home');
    // The key point itself, stated in the text, is what the brief asks for; a short field ("Tone: friendly") is no echo.
    expect(
      echoedInstruction('A healthy starter doubles within eight hours of feeding. Tone: friendly and warm.', brief),
    ).toBeUndefined();
  });
  test('an answer that writes the text asked for, or repeats only the user’s words', () => {
    expect(
      echoedInstruction('Composting turns kitchen scraps into soil [1]. Start with a bin.', prompt),
    ).toBeUndefined();
    expect(
      echoedInstruction('Write about composting at home for beginners in a friendly tone, please.', prompt),
    ).toBeUndefined();
  });
});

describe('stripChatter', () => {
  test('an opening line and closing lines addressed to the requester go; the text between stays as written', () => {
    expect(
      stripChatter(
        "Sure! Here's the post you asked for:\n\n# Winter pipes\n\nInsulate the loft pipes.\n\nI hope this helps!\n\nLet me know if you want changes.",
      ),
    ).toBe('# Winter pipes\n\nInsulate the loft pipes.');
  });
  test('a text without chat, or whose only paragraph looks like chat, is kept', () => {
    const post = 'Here is what a first-year beekeeper needs: a hive, a veil and patience.\n\nStart in spring.';
    expect(stripChatter(post)).toBe(post);
    expect(stripChatter('Let me know what you think.')).toBe('Let me know what you think.');
  });
});

describe('editingTalk', () => {
  test('an answer that opens with, or keeps returning to, talk about edits', () => {
    expect(editingTalk("Here's a rewritten version of your introduction:\nBooks bring people in.")).toBe(
      "Here's a rewritten version of your introduction:",
    );
    expect(
      editingTalk(
        'Books bring people in. I made some minor adjustments to the flow. I added a few new sentences too. I have rewritten the end.',
      ),
    ).toBe('I made some minor adjustments to the flow.');
  });
  test('a post that mentions editing once, or not at all', () => {
    expect(editingTalk('Books bring people in. Last year I made some changes to our event nights.')).toBeUndefined();
    expect(editingTalk('Insulate loft pipes before the first frost.')).toBeUndefined();
  });
});
