/**
 * A small lexicon of common given names (English-speaking countries, plus frequent European ones) and the gender
 * they are usually given to, for choosing a speaker's voice when the speaker declares neither a voice nor a gender
 * (docs/podcast.md). A name that is common for both (Alex, Sam, Jordan) or not listed gives no answer: the voice is
 * then chosen by the speaker's order. Never used to say anything about a person, only to pick a voice.
 */
const FEMALE = `abigail ada adele adriana agnes aisha alexandra alice alicia alison amanda amber amelia amy ana
andrea angela ann anna anne annie april ava barbara beatrice bella beth bethany betty brenda bridget brooke camila
carla carmen carol caroline catherine charlotte chloe christina christine claire clara claudia colleen cynthia
daisy dana daniela deborah denise diana diane donna dorothy eleanor elena elisa eliza elizabeth ella ellen emily
emma erica erin esther eva evelyn fatima fiona florence frances freya gabriela gemma georgia grace hannah harriet
heather helen holly ida ingrid irene isabel isabella isla jacqueline jane janet jasmine jennifer jenny jessica
jill joan joanna josephine joy judith julia julie karen kate katherine kathleen katie kelly kim kimberly laura
lauren leah lily linda lisa lola louise lucia lucy lydia madison maria marie marina martha mary maya megan
melissa mia michelle mila molly monica nadia nancy naomi natalie nicole nina nora olivia paula pamela patricia
penelope phoebe priya rachel rebecca rita rose rosa ruby ruth sabrina samantha sandra sara sarah scarlett sharon
sofia sophia sophie stella stephanie susan sylvia tanya teresa tessa tina valentina vanessa victoria violet
wendy yasmin yvonne zoe`;
const MALE = `aaron adam adrian ahmed alan albert alexander alfie andrew angus anthony antonio arthur ben benjamin
bernard bill bob brandon brian bruce caleb carl carlos charles chris christian christopher colin connor craig
daniel darren david dennis derek diego dominic donald douglas dylan edward elijah eric ethan felix finn francis
frank fred gabriel gary george gerald gordon graham greg gregory harry henry hugo ian isaac ivan jack jacob jake
james jason jeff jeffrey jeremy jim joe john jonathan jose joseph josh joshua juan julian justin karl keith kevin
kyle lars leo leon liam lucas luis luke marco marcus mark martin matthew max michael miguel mike mohammed muhammad
nathan neil nicholas noah oliver omar oscar owen patrick paul peter philip rafael ravi raj raymond richard rob robert
roger ronald ryan samuel scott sean sebastian simon stephen steve steven thomas tim timothy tom tony victor
vincent walter wayne william`;

const lexicon = new Map<string, 'female' | 'male'>([
  ...FEMALE.split(/\s+/).map((n) => [n, 'female'] as const),
  ...MALE.split(/\s+/).map((n) => [n, 'male'] as const),
]);

/** The gender a speaker's given name (its first word) is usually given to, when the lexicon knows it. */
export function genderOfName(name: string): 'female' | 'male' | undefined {
  const first = name
    .trim()
    .split(/[\s(,]+/)[0]
    ?.toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  return first ? lexicon.get(first) : undefined;
}
