// The vttest screens the conformance run walks through, as the keys a person would type:
// every menu whose screens need no human to judge them (nothing to press but what the screen
// asks for, nothing timed), and the prompts that end each screen. vttest 2.7 (Debian 12).

/** What ends a screen: vttest waits for the user there. */
export const PUSH = 'Push <RETURN>';
/** A menu's prompt ("Enter choice number (0 - 12): "). */
export const MENU = 'Enter choice number';

/** One key press (or a choice and Enter) and the prompt it must bring; `untilMenu`: Enter again at each PUSH until a menu prompt comes. */
export interface Step {
  keys: string;
  prompt: readonly string[];
  untilMenu?: boolean;
  /** Where the step is, for messages: the menu path vttest shows ("2", "11.5"…). */
  menu: string;
}

/** Menu `menu`'s choice `choice` as vttest numbers it ("11.5"); 0 leaves a menu. */
const path = (menu: string, choice: string) => (choice === '0' ? menu : menu === '' ? choice : `${menu}.${choice}`);
/** Choice `choice` of a menu: each of its screens, Enter at each, back at the menu. */
const item = (menu: string, choice: string): Step => ({ keys: `${choice}\r`, prompt: [PUSH, MENU], untilMenu: true, menu: path(menu, choice) });
/** Into submenu `choice` (its menu shown). */
const open = (menu: string, choice: string): Step => ({ keys: `${choice}\r`, prompt: [MENU], menu: path(menu, choice) });
/** Back out of a submenu (0). */
const back = (menu: string): Step => ({ keys: '0\r', prompt: [MENU], menu });
/** A key where vttest waits for something else than Enter at a PUSH prompt (an answer it reads, a question). */
const wait = (menu: string, keys: string, prompt: string): Step => ({ keys, prompt: [prompt], menu });

/** Menus 6.x ask the terminal something; where no terminal here answers, vttest waits for typed input (the Enter, then shown as the answer). */
const reports: Step[] = [
  open('', '6'),
  wait('6.1', '1\r', 'Finish this test with RETURN'), // ENQ: no answerback in either terminal
  wait('6.1', '\r', PUSH),
  wait('6', '\r', MENU),
  wait('6.2', '2\r', 'Push the RETURN key'), // LNM set: a terminal would send CR LF
  wait('6.2', '\r', 'Push the RETURN key'),
  wait('6.2', '\r', PUSH),
  wait('6', '\r', MENU),
  item('6', '3'), // DSR: status and cursor position
  item('6', '4'), // DA1
  item('6', '5'), // DA2
  wait('6.6', '6\r', 'Testing Tertiary Device Attributes'), // DA3: neither answers
  wait('6.6', '\r', PUSH),
  wait('6', '\r', MENU),
  wait('6.7', '7\r', 'argument 0.'), // DECREQTPARM: neither answers
  wait('6.7', '\r', 'argument 1.'),
  wait('6.7', '\r', PUSH),
  wait('6', '\r', MENU),
  back(''),
];

/** Menu 9's bugs, one by one (Bug D asks whether to try again: no). */
const bugs: Step[] = [
  open('', '9'),
  ...['1', '2', '3'].map((choice) => item('9', choice)),
  wait('9.4', '4\r', 'Enter 0 to exit'),
  item('9.4', '0'),
  ...['5', '6', '7', '8', '9'].map((choice) => item('9', choice)),
  back(''),
];

/** Menu 11: the ISO 6429 cursor movements (all), colours without BCE's erased backgrounds (see the test), the other ISO 6429 features but protected areas. */
const nonVt100: Step[] = [
  open('', '11'),
  open('11', '5'),
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((choice) => item('11.5', choice)),
  back('11'),
  open('11', '6'),
  ...['2', '3', '4', '5', '9'].map((choice) => item('11.6', choice)),
  back('11'),
  open('11', '7'),
  ...['2', '3', '4', '5', '6'].map((choice) => item('11.7', choice)),
  back('11'),
  back(''),
];

/**
 * The whole walk from the main menu: 1 (cursor movements), 2 (screen features), 3 (character
 * sets), 4 (double-sized characters), 6 (terminal reports), 8 (VT102 insert/delete), 9 (known
 * VT100 bugs), 10 (reset and self-test), 11 (ISO 6429). Not walked: 5 (the keyboard: a person
 * presses keys and judges), 7 (VT52 mode: neither tmux nor xterm.js has one, both print its
 * sequences as text, differently, and its identify query is answered by neither), 12 (settings).
 */
export const walk: Step[] = [
  item('', '1'),
  item('', '2'),
  item('', '3'),
  item('', '4'),
  ...reports,
  item('', '8'),
  ...bugs,
  open('', '10'),
  ...['1', '2', '3'].map((choice) => item('10', choice)),
  back(''),
  ...nonVt100,
];
