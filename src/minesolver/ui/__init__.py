"""The faces: everything people see, and the only modules that word numbers and reasons.

The command line (:mod:`~minesolver.ui.cli`), the terminal's boards and play
(:mod:`~minesolver.ui.display`, :mod:`~minesolver.ui.play`), plots
(:mod:`~minesolver.ui.plots`), the words (:mod:`~minesolver.ui.words`) and the JSON shapes
(:mod:`~minesolver.ui.json_shapes`); the web app is :mod:`minesolver.web`. Only faces
import rich, typer, Starlette, uvicorn or matplotlib, and no library module imports a face.
"""
