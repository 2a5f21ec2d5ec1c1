import { useState } from 'react';
import { usePlingAction, usePlingRecords, usePlingState } from 'pling-declare/react';

interface Todo { id: string; text: string; done: boolean }

export function Todos() {
  const [todos, setTodos] = useState<Todo[]>([]);
  // Declared while mounted, removed on unmount; callbacks always see the latest `todos`.
  usePlingRecords({ type: 'task', list: todos, label: (t) => t.text, fields: (t) => ({ done: t.done }) });
  usePlingState({ key: 'open_count', description: 'Tasks not done yet', value: todos.filter((t) => !t.done).length });
  usePlingAction({
    id: 'add_todo', description: 'Add a task', risk: 'write',
    params: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] },
    run: ({ text }) => {                       // text: string, typed from params
      const todo = { id: crypto.randomUUID(), text, done: false };
      setTodos((list) => [...list, todo]);
      return { id: todo.id };
    },
    expect: { description: 'The task is in the list', check: ({ text }) => todos.some((t) => t.text === text) },
  });
  usePlingAction({                             // a family: remove@ID for every task
    id: 'remove', record: 'task', description: 'Delete the task', risk: 'danger',
    target: (id) => document.querySelector(`li[data-id="${id}"] button.destroy`),
  });
  const remove = (id: string) => setTodos((list) => list.filter((t) => t.id !== id));
  return (
    <ul>
      {todos.map((t) => (
        <li key={t.id} data-id={t.id}>{t.text} <button className="destroy" onClick={() => remove(t.id)}>×</button></li>
      ))}
    </ul>
  );
}
